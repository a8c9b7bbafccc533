import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BAN_MESSAGE } from "../../domain/ban.ts";
import { sessions, telegramAuthUses, users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser } from "../testing/factories.ts";
import { createSignInBrowser, type SignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../testing/telegram.ts";
import { decodeTgAuthResult } from "./telegram.ts";

const PUBLIC_URL = "http://app.test";
const NOW_S = Math.floor(Date.UTC(2025, 2, 1, 10, 0, 0) / 1000);
let t: TestApp;
/** The browser that starts each sign-in and completes it, as the front end does. */
let browser: SignInBrowser;

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL, TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN, AUTH_RATE_LIMIT_PER_MIN: "1000" },
    clock: { now: () => new Date(NOW_S * 1000) },
  });
  browser = createSignInBrowser(t.app);
});
afterAll(() => t.close());

/** Starts a sign-in in `from` and posts `body` with that sign-in's session id beside it. */
const complete = async (body: unknown, raw = false, from = browser) => {
  const { session_id } = await from.oauthUrls();
  const withSession = body && typeof body === "object" && !Array.isArray(body) ? { ...body, session_id } : body;
  return await from.request("/api/auth/oauth/telegram/complete", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ? (body as string) : JSON.stringify(withSession),
  });
};

const sign = (data: Parameters<typeof signTelegramAuth>[0]) => signTelegramAuth(data, { nowS: NOW_S });

describe("a Telegram result signs in once, in the browser that started the sign-in (login CSRF)", () => {
  it("one signed result makes one session: replays are refused, from this browser or another", async () => {
    const result = encodeTgAuthResult(await sign({ id: 4242101, first_name: "Once" }));
    const first = await complete({ tgAuthResult: result });
    expect(first.status).toBe(200);
    const { user } = await first.json();
    for (const from of [browser, createSignInBrowser(t.app)]) {
      const again = await complete({ tgAuthResult: result }, false, from);
      expect(again.status).toBe(401);
      expect((await again.json()).error).toBe("Эти данные авторизации Telegram уже использованы. Войдите снова.");
    }
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.user_id, user.id))).toHaveLength(1);
  });

  it("remembers a used result until it would be refused as too old anyway", async () => {
    const result = await sign({ id: 4242102, auth_date: NOW_S - 100 });
    expect((await complete({ tgAuthResult: result })).status).toBe(200);
    const [row] = await t.ctx.db.select().from(telegramAuthUses).where(eq(telegramAuthUses.hash, String(result.hash)));
    expect(row.expires_at.getTime()).toBe((NOW_S - 100 + 86400 + 1) * 1000);
  });

  it("refuses someone else's result in a browser that started no Telegram sign-in", async () => {
    const theirs = encodeTgAuthResult(await sign({ id: 4242103, first_name: "Attacker" }));
    const victim = createSignInBrowser(t.app);
    const res = await victim.request("/api/auth/oauth/telegram/complete", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tgAuthResult: theirs }),
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error).toBe("Сессия авторизации истекла или недействительна. Попробуйте войти снова.");
    expect(body.access_token).toBeUndefined();
    expect(await t.ctx.db.select().from(users).where(eq(users.telegram_id, "4242103"))).toHaveLength(0);
  });

  it("refuses a sign-in session another browser started", async () => {
    const attacker = createSignInBrowser(t.app);
    const { session_id } = await attacker.oauthUrls();
    const victim = createSignInBrowser(t.app);
    await victim.oauthUrls();
    const res = await victim.request("/api/auth/oauth/telegram/complete", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tgAuthResult: await sign({ id: 4242104 }), session_id }),
    });
    expect(res.status).toBe(401);
    expect(await t.ctx.db.select().from(users).where(eq(users.telegram_id, "4242104"))).toHaveLength(0);
  });

  it("accepts the bare fields with the session id beside them", async () => {
    const res = await complete(await sign({ id: 4242105, first_name: "Bare" }));
    expect(res.status).toBe(200);
    expect((await res.json()).user.telegram_id).toBe("4242105");
  });
});

describe("Telegram sign-in URL", () => {
  it("points at oauth.telegram.org for the bot id, our origin and the callback page", async () => {
    const urls = await (await t.app.request("/api/auth/oauth/urls")).json();
    expect(urls.vk).toBeNull();
    const url = new URL(urls.telegram);
    expect(url.origin + url.pathname).toBe("https://oauth.telegram.org/auth");
    expect(url.searchParams.get("bot_id")).toBe("123456");
    expect(url.searchParams.get("origin")).toBe(PUBLIC_URL);
    expect(url.searchParams.get("request_access")).toBe("write");
    expect(url.searchParams.get("return_to")).toBe(`${PUBLIC_URL}/auth/telegram/callback`);
  });
});

describe("POST /api/auth/oauth/telegram/complete", () => {
  it("signs in with a base64url result and creates the user", async () => {
    const result = await sign({ id: 4242001, first_name: "Maria", username: "dj_maria" });
    const res = await complete({ tgAuthResult: encodeTgAuthResult(result) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.user).toMatchObject({ telegram_id: "4242001", first_name: "Maria", username: "dj_maria" });
    const me = await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(me.status).toBe(200);
    expect(typeof body.refresh_token).toBe("string");
  });

  it("keeps a Telegram name without the characters that would show staff a false name (issue 20)", async () => {
    const result = await sign({ id: 4242909, first_name: "\u202eanirA", last_name: "Ли\u200bса\u2069" });
    const res = await complete({ tgAuthResult: encodeTgAuthResult(result) });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ first_name: "anirA", last_name: "Лиса" });
  });

  it("signs in with the decoded object, and the same Telegram user gets the same account", async () => {
    // Two sign-ins, two results (a result works once).
    const a = await (await complete({ tgAuthResult: await sign({ id: 4242002, first_name: "Pavel" }) })).json();
    const b =
      await (await complete({ tgAuthResult: await sign({ id: 4242002, first_name: "Pavel", auth_date: NOW_S - 5 }) }))
        .json();
    expect(a.user.id).toBe(b.user.id);
    expect(await t.ctx.db.select().from(users).where(eq(users.telegram_id, "4242002"))).toHaveLength(1);
  });

  it("accepts non-ASCII names, decoded as UTF-8", async () => {
    const result = await sign({ id: 4242003, first_name: "Дмитрий", last_name: "Ёлкин 🎧", username: "elkin" });
    const encoded = encodeTgAuthResult(result);
    expect(decodeTgAuthResult(encoded).last_name).toBe("Ёлкин 🎧");
    const res = await complete({ tgAuthResult: encoded });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ first_name: "Дмитрий", last_name: "Ёлкин 🎧" });
  });

  it("makes a Latin username from a Cyrillic name when there is no Telegram username", async () => {
    const res = await complete({ tgAuthResult: await sign({ id: 4242004, first_name: "Женя", last_name: "Щукин" }) });
    expect((await res.json()).user.username).toBe("zhenya_schukin");
  });

  it("rejects a changed field", async () => {
    const result = await sign({ id: 4242005, first_name: "Eve" });
    const res = await complete({ tgAuthResult: { ...result, id: 1 } });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("Неверная подпись данных Telegram");
    const added = await complete({ tgAuthResult: { ...result, username: "admin" } });
    expect(added.status).toBe(401);
  });

  it("rejects a wrong hash and a hash made with another bot token", async () => {
    const result = await sign({ id: 4242006 });
    expect((await complete({ tgAuthResult: { ...result, hash: "0".repeat(64) } })).status).toBe(401);
    expect((await complete({ tgAuthResult: { ...result, hash: "zz" } })).status).toBe(401);
    const other = await signTelegramAuth({ id: 4242006 }, { botToken: "999:OTHER", nowS: NOW_S });
    expect((await complete({ tgAuthResult: other })).status).toBe(401);
  });

  it("rejects a stale auth_date and one from the future", async () => {
    const stale = await sign({ id: 4242007, auth_date: NOW_S - 86401 });
    const res = await complete({ tgAuthResult: stale });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toContain("устарели");
    const fresh = await sign({ id: 4242007, auth_date: NOW_S - 86000 });
    expect((await complete({ tgAuthResult: fresh })).status).toBe(200);
    const future = await sign({ id: 4242007, auth_date: NOW_S + 3600 });
    expect((await complete({ tgAuthResult: future })).status).toBe(401);
  });

  it("rejects a result without a hash", async () => {
    const { hash: _hash, ...rest } = await sign({ id: 4242008 });
    const res = await complete({ tgAuthResult: rest });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Отсутствует подпись данных Telegram");
  });

  it("rejects garbage base64 and non-JSON with a 400", async () => {
    for (const garbage of ["%%%not-base64%%%", "YWJj", "////", btoa("\xff\xfe\xfd"), "e30", "WyJhIl0"]) {
      const res = await complete({ tgAuthResult: garbage });
      expect(res.status, garbage).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
  });

  it("answers 400 Empty authentication data for empty input", async () => {
    for (const body of [{}, { tgAuthResult: "" }, { tgAuthResult: {} }, { tgAuthResult: null }]) {
      const res = await complete(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toBe("Empty authentication data");
    }
    const empty = await t.app.request("/api/auth/oauth/telegram/complete", { method: "POST" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe("Empty authentication data");
  });

  it("answers 403 with the ban text for a banned Telegram user", async () => {
    await createUser(t.ctx.db, { telegram_id: "4242009", is_banned: true });
    const res = await complete({ tgAuthResult: await sign({ id: 4242009 }) });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error).toBe(DEFAULT_BAN_MESSAGE);
    expect(body.access_token).toBeUndefined();
  });

  it("answers 503 when Telegram is not configured", async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.request("/api/auth/oauth/telegram/complete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tgAuthResult: { id: 1, first_name: "A", auth_date: 1, hash: "ab" } }),
      });
      expect(res.status).toBe(503);
      const urls = await (await bare.app.request("/api/auth/oauth/urls")).json();
      expect(urls).toMatchObject({ vk: null, telegram: null });
    } finally {
      await bare.close();
    }
  });
});
