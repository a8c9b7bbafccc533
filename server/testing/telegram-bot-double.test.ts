import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelegramBotDouble, type TelegramBotDouble } from "./telegram-bot-double.ts";

let bot: TelegramBotDouble;
beforeAll(async () => {
  bot = await startTelegramBotDouble();
});
afterAll(() => bot.stop());

const send = (body: unknown, token = bot.token) =>
  fetch(`${bot.url}/bot${token}/sendMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the Bot API double", () => {
  it("answers sendMessage as the Bot API does and records the call", async () => {
    const res = await send({ chat_id: 42, text: "привет" });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ ok: true, result: { chat: { id: 42 }, text: "привет" } });
    expect(typeof answer.result.message_id).toBe("number");
    expect(bot.delivered.at(-1)?.body).toEqual({ chat_id: 42, text: "привет" });
  });

  it("whenDelivered resolves once enough matching messages were answered ok, not before", async () => {
    let got: unknown = null;
    const waiting = bot.whenDelivered((c) => String(c.body.text).startsWith("ждём"), 2).then((c) => (got = c));
    await send({ chat_id: 7, text: "ждём 1" });
    await send({ chat_id: 7, text: "другое" });
    expect(got).toBeNull();
    await send({ chat_id: 7, text: "ждём 2" });
    const calls = await waiting;
    expect(calls.map((c) => c.body.text)).toEqual(["ждём 1", "ждём 2"]);
    // Already there: at once.
    expect(await bot.whenDelivered((c) => c.body.text === "ждём 1", 1)).toHaveLength(1);
  });

  it("whenAnswered resolves with what it reads once an answered call makes it true, not before", async () => {
    let got: unknown = null;
    const find = () => bot.messages.find((m) => m.text === "ответ 2");
    const waiting = bot.whenAnswered(find).then((m) => (got = m));
    await send({ chat_id: 8, text: "ответ 1" });
    expect(got).toBeNull();
    await send({ chat_id: 8, text: "ответ 2" });
    expect((await waiting).text).toBe("ответ 2");
    // Already true: at once.
    expect((await bot.whenAnswered(find)).text).toBe("ответ 2");
  });

  it("refuses a wrong token, an empty or too long text, in Telegram's error shape", async () => {
    expect(await (await send({ chat_id: 1, text: "x" }, "1:wrong")).json()).toEqual({
      ok: false,
      error_code: 401,
      description: "Unauthorized",
    });
    const long = await send({ chat_id: 1, text: "я".repeat(4097) });
    expect(long.status).toBe(400);
    expect((await long.json()).description).toBe("Bad Request: message is too long");
    expect((await send({ chat_id: 1, text: "" })).status).toBe(400);
  });

  it("fails the next calls as programmed, one failure per call", async () => {
    bot.failNext({ kind: "flood", retryAfterS: 3 }, { kind: "blocked" }, { kind: "server", status: 502 }, {
      kind: "drop",
    });
    const flood = await send({ chat_id: 1, text: "x" });
    expect(flood.status).toBe(429);
    expect(await flood.json()).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 3 } });
    const blocked = await send({ chat_id: 1, text: "x" });
    expect(await blocked.json()).toMatchObject({
      error_code: 403,
      description: "Forbidden: bot was blocked by the user",
    });
    expect((await send({ chat_id: 1, text: "x" })).status).toBe(502);
    const dropped = await send({ chat_id: 1, text: "x" });
    await expect(dropped.text()).rejects.toThrow();
    expect((await send({ chat_id: 1, text: "x" })).status).toBe(200);
    expect(bot.calls.slice(-5).map((c) => c.answer)).toEqual(["flood", "blocked", "server", "drop", "ok"]);
  });
});
