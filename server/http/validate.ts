import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { z, ZodType } from "zod";
import { ApiError } from "../lib/http-error.ts";
import { hiddenTextIn } from "./text-fields.ts";

/**
 * The one mapping from a failed zod parse to our 400 answer (decision 0125): the first issue's
 * message. Zod's own English messages ("Invalid …", "Expected …") mean the schema gave none; the
 * answer then names the field in Russian instead. Write schema messages in Russian, e.g.
 * `z.string().min(1, "Имя пользователя обязательно для заполнения")`.
 */
export function invalidInput(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError(400, "Некорректные данные");
  const field = issue.path.join(".");
  const generic = issue.message.startsWith("Invalid") || issue.message.startsWith("Expected");
  return new ApiError(400, generic && field ? `Некорректное значение поля ${field}` : issue.message);
}

/** A declared input of a route: what `validate` or `declareInput` was given. */
export interface DeclaredInput {
  target: keyof ValidationTargets;
  schema: ZodType;
}

/** The middleware of each route that declares its input, by the middleware function. */
const declared = new WeakMap<object, DeclaredInput>();

/** The input a route's handler declares (for tests that walk `app.routes`), else undefined. */
export function declaredInput(handler: unknown): DeclaredInput | undefined {
  return typeof handler === "function" ? declared.get(handler) : undefined;
}

/** The bodies a person types and the site stores: their text fields are held to the hidden-characters rule. */
const BODIES: ReadonlySet<keyof ValidationTargets> = new Set(["json", "form"]);

/**
 * Issue 32 (decision 0305): every text field of a body refuses hidden characters before the schema
 * reads it, whether or not its own rule says so, with the message naming them.
 */
function refuseHiddenText(schema: ZodType, value: unknown): void {
  const found = hiddenTextIn(schema, value);
  if (found) throw new ApiError(400, found.message);
}

/**
 * `@hono/zod-validator` answering with `invalidInput`. A JSON or form body is first held to the
 * hidden-characters rule field by field (`server/http/text-fields.ts`).
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const body = BODIES.has(target);
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) throw invalidInput(result.error);
  }, {
    // The default's own parse, after the check (the option's type is narrower than zod 4's result).
    validationFunction: async (s, value) => {
      if (body) refuseHiddenText(s, value);
      // deno-lint-ignore no-explicit-any
      return await s.safeParseAsync(value) as any;
    },
  });
  declared.set(middleware, { target, schema });
  return middleware;
}

/**
 * For a route that reads its body by hand (a streamed multipart form, JSON or a form) and parses it
 * with `parseOrThrow`: declares the schema beside the route, as `validate` does, so the tests that
 * walk every route's input find it. It does nothing to the request.
 */
export function declareInput(target: keyof ValidationTargets, schema: ZodType): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  declared.set(middleware, { target, schema });
  return middleware;
}

/**
 * For inputs the `validate()` middleware cannot see (the text parts of a streamed multipart form, a
 * body read by hand): the same rules (the hidden characters first) and the same answer.
 */
export function parseOrThrow<T extends ZodType>(schema: T, value: unknown): z.output<T> {
  refuseHiddenText(schema, value);
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}

/**
 * The one rule for an id in a path (routes and the lanes in front of the router, decision 0208):
 * `text` from `from` to its end is 1–15 ASCII digits (leading zeros allowed, so always a safe
 * integer) with a value above 0. That value, else 0. A digit loop: no regex, no allocation.
 */
export function idOf(text: string, from = 0): number {
  const end = text.length;
  if (end <= from || end - from > 15) return 0;
  let id = 0;
  for (let i = from; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return 0;
    id = id * 10 + d;
  }
  return id;
}

/** Path parameter `id`: a positive integer (`idOf`), else 404 (an id that cannot exist is not found). */
export function parseId(raw: string | undefined): number {
  const n = raw === undefined ? 0 : idOf(raw);
  if (n === 0) throw new ApiError(404, "Не найдено");
  return n;
}
