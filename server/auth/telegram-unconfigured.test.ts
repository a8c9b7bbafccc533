import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";

// A server without TELEGRAM_BOT_TOKEN: empty input is still the person's mistake (spec 1 §5),
// and a real result cannot be checked, which is the server's configuration, not theirs.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const complete = (body: unknown) =>
  t.app.request("/api/auth/oauth/telegram/complete", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("Telegram sign-in when Telegram is not configured", () => {
  it("answers empty input with 400 Empty authentication data", async () => {
    const res = await complete({ tgAuthResult: "" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: "Empty authentication data" });
  });

  it("answers a result it cannot check with 503 and a clear text", async () => {
    const res = await complete({ tgAuthResult: { id: 1, auth_date: 1, hash: "ab" } });
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe("Вход через Telegram не настроен");
  });
});
