import type { ZodType, z } from "zod";
import { ApiError } from "./http-error.ts";

/**
 * For inputs the `validate()` middleware cannot see (the text parts of a streamed multipart form):
 * the same rule, the first issue's message becomes the 400 answer.
 */
export function parseOrThrow<T extends ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path?.join(".");
  const generic = issue?.message?.startsWith("Invalid") || issue?.message?.startsWith("Expected");
  throw new ApiError(
    400,
    !issue ? "Некорректные данные" : generic && field ? `Некорректное значение поля ${field}` : issue.message,
  );
}
