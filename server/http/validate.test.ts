import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "../lib/http-error.ts";
import { parseOrThrow, validate } from "./validate.ts";

const schema = z.object({
  name: z.string().min(1, "Имя обязательно"),
  age: z.number(),
  tags: z.array(z.string()).optional(),
});

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return { status: (err as ApiError).status, message: (err as ApiError).message };
  }
  throw new Error("expected a refusal");
}

describe("one zod-to-400 mapping", () => {
  it("answers the schema's own message, or names the field when zod had only its English default", () => {
    expect(parseOrThrow(schema, { name: "Ann", age: 3 })).toEqual({ name: "Ann", age: 3 });
    expect(refusal(() => parseOrThrow(schema, { name: "", age: 3 }))).toEqual({
      status: 400,
      message: "Имя обязательно",
    });
    expect(refusal(() => parseOrThrow(schema, { name: "Ann", age: "3" })))
      .toEqual({ status: 400, message: "Некорректное значение поля age" });
    expect(refusal(() => parseOrThrow(schema, { name: "Ann", age: 3, tags: [1] })))
      .toEqual({ status: 400, message: "Некорректное значение поля tags.0" });
  });

  it("gives the validate() middleware the same answers as parseOrThrow", async () => {
    const app = new Hono()
      .post("/", validate("json", schema), (c) => c.json({ ok: true }))
      .onError((err, c) => c.json({ error: err.message }, err instanceof ApiError ? err.status : 500));
    for (const body of [{ name: "", age: 3 }, { name: "Ann", age: "3" }, { name: "Ann", age: 3, tags: [1] }]) {
      const res = await app.request("/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(refusal(() => parseOrThrow(schema, body)).message);
    }
  });
});
