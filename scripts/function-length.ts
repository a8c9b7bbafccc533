/**
 * "No server function over 150 lines" (issue 33), found by the TypeScript compiler's own parser
 * rather than by counting braces: every function declaration, function expression, arrow function,
 * method, accessor and constructor of a file, nested ones included, measured from its first line to
 * its last (a closure counts inside the function around it too, as a reader has to read it there).
 */
import ts from "typescript";

export const MAX_FUNCTION_LINES = 150;

export interface LongFunction {
  /** `path#name`, the name qualified by the named functions around it (`outer.inner`). */
  key: string;
  lines: number;
}

/** What a function is called where it stands: its own name, its variable's, its property's. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).split("(")[0]}(callback)`;
  return "(anonymous)";
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node);
}

/** The functions of one file longer than `max` lines, outermost first. */
export function longFunctions(path: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, outer: string[]) => {
    let names = outer;
    if (isFunction(node) && node.body) {
      names = [...outer, nameOf(node, source)];
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ key: `${path}#${names.join(".")}`, lines });
    }
    ts.forEachChild(node, (child) => visit(child, names));
  };
  visit(source, []);
  return found;
}

/** Test files and the test kits are not held to it. */
export function isMeasured(path: string): boolean {
  return /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.startsWith("server/testing/");
}

/** Every long function of the given files (path → text), measured files only. */
export function allLongFunctions(files: Record<string, string>, max = MAX_FUNCTION_LINES): LongFunction[] {
  return Object.entries(files).filter(([path]) => isMeasured(path))
    .flatMap(([path, text]) => longFunctions(path, text, max));
}
