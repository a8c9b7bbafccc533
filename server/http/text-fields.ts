import { hiddenCharsIn, hiddenCharsMessage, textFieldKind } from "../../domain/hidden-chars.ts";

/**
 * The text fields of an input schema, read from the zod schema itself (issue 32, decision 0305): the
 * body check in front of every validator (`validate`, `parseOrThrow`) holds each string the input
 * carries at one of these paths to the hidden-characters rule, and the table test walks the same
 * list over every route, so a new field is covered without being listed anywhere.
 */
export interface TextField {
  /** Keys from the body's top; `*` is any element of an array or value of a record. */
  path: readonly string[];
  /** A field marked `multiline()` in its schema (a textarea): tabs and line breaks are allowed. */
  multiline: boolean;
}

/** Schema nodes with nothing of text to look into: numbers, flags, fixed values, anything. */
const LEAVES = new Set([
  "number",
  "int",
  "boolean",
  "bigint",
  "date",
  "enum",
  "literal",
  "null",
  "undefined",
  "void",
  "never",
  "nan",
  "unknown",
  "any",
  "file",
  "custom",
  "symbol",
  "transform",
]);

interface Def {
  type: string;
  shape?: Record<string, Node>;
  innerType?: Node;
  in?: Node;
  out?: Node;
  options?: Node[];
  element?: Node;
  valueType?: Node;
  left?: Node;
  right?: Node;
  getter?: () => Node;
}
type Node = { _zod: { def: Def } };

/** Leaves that take any value: a text field hides behind one unless its schema is marked `textField()`. */
const OPAQUE = new Set(["unknown", "any", "custom"]);

interface Shape {
  fields: TextField[];
  /** Paths (joined by ".") of leaves that take any value and are not marked as text. */
  opaque: string[];
}
const known = new WeakMap<object, Shape>();

function shapeOf(schema: unknown): Shape {
  const node = schema as Node;
  let shape = known.get(node);
  if (!shape) {
    const byPath = new Map<string, TextField>();
    const opaque: string[] = [];
    walk(node, [], false, 0, { byPath, opaque });
    shape = { fields: [...byPath.values()], opaque };
    known.set(node, shape);
  }
  return shape;
}

/** The text fields of `schema` (a zod 4 schema); a node of a kind this walk does not know throws. */
export function textFieldsOf(schema: unknown): TextField[] {
  return shapeOf(schema).fields;
}

/**
 * The paths where `schema` takes any value without being marked as text (for the test that every
 * such place is known not to be text).
 */
export function opaqueFieldsOf(schema: unknown): string[] {
  return shapeOf(schema).opaque;
}

function walk(
  node: Node,
  path: string[],
  multi: boolean,
  depth: number,
  out: { byPath: Map<string, TextField>; opaque: string[] },
): void {
  if (depth > 32) return;
  const def = node._zod.def;
  const marked = textFieldKind(node);
  const m = multi || Boolean(marked?.multiline);
  const next = (n: Node | undefined, p = path) => n && walk(n, p, m, depth + 1, out);
  const text = () => {
    const key = path.join("\u0000");
    const had = out.byPath.get(key);
    out.byPath.set(key, { path, multiline: m || Boolean(had?.multiline) });
  };
  // A marked schema is a text field whatever it is built of (a `z.unknown()` that checks the text).
  if (marked) return text();
  switch (def.type) {
    case "string":
    case "template_literal":
      return text();
    case "object":
      for (const [k, v] of Object.entries(def.shape ?? {})) next(v, [...path, k]);
      return;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return next(def.innerType);
    case "pipe":
      // The input's side, and the output's side too: a preprocess or a loose record in front of an
      // object still names the fields behind it.
      next(def.in);
      return next(def.out);
    case "union":
      for (const o of def.options ?? []) next(o);
      return;
    case "intersection":
      next(def.left);
      return next(def.right);
    case "array":
      return next(def.element, [...path, "*"]);
    case "record":
      return next(def.valueType, [...path, "*"]);
    case "lazy":
      return next(def.getter?.());
    default:
      if (OPAQUE.has(def.type) && !out.opaque.includes(path.join("."))) out.opaque.push(path.join("."));
      if (!LEAVES.has(def.type)) throw new Error(`textFieldsOf: a schema node of type ${def.type} is not read`);
  }
}

/** The strings `value` holds at `path`. */
function stringsAt(value: unknown, path: readonly string[], from = 0, found: string[] = []): string[] {
  if (from === path.length) {
    if (typeof value === "string") found.push(value);
    return found;
  }
  if (value === null || typeof value !== "object") return found;
  const key = path[from];
  if (key === "*") {
    for (const v of Array.isArray(value) ? value : Object.values(value)) stringsAt(v, path, from + 1, found);
  } else if (!Array.isArray(value) && Object.hasOwn(value, key)) {
    stringsAt((value as Record<string, unknown>)[key], path, from + 1, found);
  }
  return found;
}

/**
 * The first text field of `value` (an input of that schema, before parsing) that holds a hidden
 * character, with the message naming them; null when none does.
 */
export function hiddenTextIn(
  schema: unknown,
  value: unknown,
): { path: string[]; message: string } | null {
  for (const field of textFieldsOf(schema)) {
    for (const s of stringsAt(value, field.path)) {
      const chars = hiddenCharsIn(s, { multiline: field.multiline });
      if (chars.length) return { path: [...field.path], message: hiddenCharsMessage(chars) };
    }
  }
  return null;
}
