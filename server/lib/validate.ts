import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { ApiError } from "./http-error.ts";

/**
 * `@hono/zod-validator` with our error shape: the first issue's message becomes the 400 answer.
 * Write schema messages in Russian, e.g. `z.string().min(1, "Имя пользователя обязательно для заполнения")`.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = issue?.path?.join(".");
      const generic = issue?.message?.startsWith("Invalid") || issue?.message?.startsWith("Expected");
      const message = !issue
        ? "Некорректные данные"
        : generic && field
        ? `Некорректное значение поля ${field}`
        : issue.message;
      throw new ApiError(400, message);
    }
  });
}

/** Path parameter `id`: a positive integer, else 404 (an id that cannot exist is not found). */
export function parseId(raw: string | undefined): number {
  const n = Number(raw);
  if (!raw || !/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw new ApiError(404, "Не найдено");
  return n;
}
