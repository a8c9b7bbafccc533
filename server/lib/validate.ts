import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z, ZodType } from "zod";
import { ApiError } from "./http-error.ts";

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

/** `@hono/zod-validator` answering with `invalidInput`. */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw invalidInput(result.error);
  });
}

/**
 * For inputs the `validate()` middleware cannot see (the text parts of a streamed multipart form, a
 * body read by hand): the same rule and the same answer.
 */
export function parseOrThrow<T extends ZodType>(schema: T, value: unknown): z.output<T> {
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
