import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelegramBotDouble, type TelegramBotDouble } from "./telegram-bot-double.ts";

let bot: TelegramBotDouble;
beforeAll(async () => {
  bot = await startTelegramBotDouble();
});
afterAll(() => bot.stop());

const call = async (method: string, body: unknown) => {
  const res = await fetch(`${bot.url}/bot${bot.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

describe("the Bot API double's receiving side", () => {
  it("getUpdates delivers queued updates, forgets those below the offset, and holds an empty poll for its timeout", async () => {
    const a = bot.updates.press({ fromId: 1, chatId: -5, messageId: 7, data: "d1" });
    const b = bot.updates.press({ fromId: 1, chatId: -5, messageId: 7, data: "d2" });
    expect(b.update_id).toBe(a.update_id + 1);
    const first = await call("getUpdates", { offset: 0, timeout: 0 });
    expect(first.body).toEqual({ ok: true, result: [a, b] });
    expect(a.callback_query).toMatchObject({
      from: { id: 1 },
      message: { message_id: 7, chat: { id: -5 } },
      data: "d1",
    });
    const confirmed = await call("getUpdates", { offset: b.update_id + 1, timeout: 0 });
    expect(confirmed.body).toEqual({ ok: true, result: [] });
    expect(bot.updates.queued).toEqual([]);

    // A long poll waits, and answers as soon as an update comes.
    const waiting = call("getUpdates", { offset: b.update_id + 1, timeout: 20 });
    await new Promise((r) => setTimeout(r, 100));
    expect(bot.updates.openPolls).toBe(1);
    const c = bot.updates.press({ fromId: 2, chatId: -5, messageId: 8, data: "d3" });
    expect((await waiting).body.result).toEqual([c]);
    // Nothing comes: an empty answer after the timeout.
    const empty = await call("getUpdates", { offset: c.update_id + 1, timeout: 1 });
    expect(empty.body).toEqual({ ok: true, result: [] });
  });

  it("a second poll while one is open ends the first with 409, as Telegram does", async () => {
    const before = bot.updates.conflicts;
    const first = call("getUpdates", { timeout: 20 });
    await new Promise((r) => setTimeout(r, 100));
    const second = call("getUpdates", { timeout: 1 });
    expect((await first).status).toBe(409);
    expect((await second).body.ok).toBe(true);
    expect(bot.updates.conflicts).toBe(before + 1);
  });

  it("setWebhook takes https only; while it is set getUpdates is refused; webhook delivery carries the secret", async () => {
    expect((await call("setWebhook", { url: "http://x.test/hook" })).status).toBe(400);
    expect((await call("setWebhook", { url: "https://x.test/hook", secret_token: "bad secret!" })).status).toBe(400);
    const set = await call("setWebhook", {
      url: "https://x.test/hook",
      secret_token: "s3cret_-",
      allowed_updates: ["callback_query"],
    });
    expect(set.body).toEqual({ ok: true, result: true });
    expect((await call("getUpdates", {})).status).toBe(409);
    let seen: Request | null = null;
    const res = await bot.updates.deliverWebhook(
      { callback_query: { id: "q", from: { id: 3, is_bot: false, first_name: "A" }, data: "x" } },
      {
        fetch: ((input: string, init: RequestInit) => {
          seen = new Request(input, init);
          return Promise.resolve(new Response("{}"));
        }) as typeof fetch,
      },
    );
    expect(res.status).toBe(200);
    expect(seen!.url).toBe("https://x.test/hook");
    expect(seen!.headers.get("X-Telegram-Bot-Api-Secret-Token")).toBe("s3cret_-");
    expect(await call("deleteWebhook", {})).toMatchObject({ status: 200 });
    expect(bot.updates.webhook).toBeNull();
  });

  it("answerCallbackQuery needs the query's id", async () => {
    expect((await call("answerCallbackQuery", { callback_query_id: "1", text: "Принято" })).body).toEqual({
      ok: true,
      result: true,
    });
    expect((await call("answerCallbackQuery", {})).status).toBe(400);
  });
});
