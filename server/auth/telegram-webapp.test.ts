import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser } from "../testing/factories.ts";
import { createSignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, signWebAppInitData, TEST_BOT_TOKEN } from "../testing/telegram.ts";
import { createHmac } from "node:crypto";
import { WEBAPP_BAD_SIGNATURE, WEBAPP_EXPIRED, webAppHash } from "./telegram-webapp.ts";

/** Issue 36: the Telegram Mini App's sign-in, POST /api/auth/telegram/webapp {init_data}. */

const NOW_S = Math.floor(Date.UTC(2026, 10, 20, 10, 0, 0) / 1000);
const MAX_AGE_S = 3600;
let t: TestApp;
let logged: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: {
      PUBLIC_URL: "https://app.test",
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      TELEGRAM_AUTH_MAX_AGE_S: String(MAX_AGE_S),
      AUTH_RATE_LIMIT_PER_MIN: "1000",
      LOG_LEVEL: "debug",
    },
    clock: { now: () => new Date(NOW_S * 1000) },
  });
});
afterAll(() => t.close());
beforeAll(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    logged.push(args.map(String).join(" "));
  });
});
afterEach(() => {
  logged = [];
});

const post = (body: unknown) =>
  t.app.request("/api/auth/telegram/webapp", {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "TelegramWebView" },
    body: JSON.stringify(body),
  });

const launch = (id: number, opts: { authDate?: number; botToken?: string; allows?: boolean; name?: string } = {}) =>
  signWebAppInitData(
    { id, first_name: opts.name ?? "Мини", username: `mini${id}`, allows_write_to_pm: opts.allows },
    { authDate: opts.authDate ?? NOW_S - 60, botToken: opts.botToken },
  );

describe("POST /api/auth/telegram/webapp", () => {
  it("accepts launch data signed for this bot: tokens as the other sign-ins give, the flag stored", async () => {
    const initData = await launch(777001, { allows: false });
    const res = await post({ init_data: initData });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toMatchObject({ success: true, allows_write_to_pm: false, user: { telegram_id: "777001" } });
    expect(typeof body.access_token).toBe("string");
    expect(typeof body.refresh_token).toBe("string");
    const me = await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect((await me.json()).user.id).toBe(body.user.id);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, body.user.id));
    expect(row.allows_write_to_pm).toBe(false);
    expect(row.first_name).toBe("Мини");
    // Neither the launch data nor its hash is in the answer or the logs.
    const hash = new URLSearchParams(initData).get("hash")!;
    expect(JSON.stringify(body)).not.toContain(hash);
    expect(logged.join("\n")).not.toContain(hash);
    expect(logged.join("\n")).not.toContain(TEST_BOT_TOKEN);

    // The same launch again (the web view reloaded) is still good within its age: one account.
    const again = await post({ init_data: await launch(777001, { allows: true }) });
    expect(again.status).toBe(200);
    const second = await again.json();
    expect(second.user.id).toBe(body.user.id);
    expect(second.allows_write_to_pm).toBe(true);
  });

  it("refuses tampered, expired, another bot's and replayed-but-expired launch data", async () => {
    const good = await launch(777002);
    const tampered = good.replace(encodeURIComponent('"id":777002'), encodeURIComponent('"id":777003'));
    expect(tampered).not.toBe(good);
    const foreign = await launch(777002, { botToken: "654321:OTHER-bot-token" });
    const expired = await launch(777002, { authDate: NOW_S - MAX_AGE_S - 1 });
    const cases: Array<[string, string, number, string]> = [
      ["tampered", tampered, 401, WEBAPP_BAD_SIGNATURE],
      ["another bot's", foreign, 401, WEBAPP_BAD_SIGNATURE],
      ["expired", expired, 401, WEBAPP_EXPIRED],
      ["hash removed", good.replace(/&?hash=[0-9a-f]+/, ""), 400, "Некорректные данные запуска Telegram"],
      ["not launch data", "hello", 400, "Некорректные данные запуска Telegram"],
    ];
    for (const [name, initData, status, error] of cases) {
      const res = await post({ init_data: initData });
      expect(res.status, name).toBe(status);
      expect(await res.json(), name).toEqual({ success: false, error });
    }
    expect((await post({})).status).toBe(400);
    expect((await post({ init_data: 5 })).status).toBe(400);
    // Nobody was created by the refused ones.
    expect(await t.ctx.users.byIdentity("telegram", "777003")).toBeUndefined();

    // Replayed later: the data that signed in once is refused once past its age.
    const once = await launch(777004, { authDate: NOW_S - 10 });
    expect((await post({ init_data: once })).status).toBe(200);
    const later = await createTestApp({
      env: {
        TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
        TELEGRAM_AUTH_MAX_AGE_S: String(MAX_AGE_S),
        AUTH_RATE_LIMIT_PER_MIN: "1000",
      },
      clock: { now: () => new Date((NOW_S + MAX_AGE_S) * 1000) },
    });
    try {
      const res = await later.app.request("/api/auth/telegram/webapp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ init_data: once }),
      });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe(WEBAPP_EXPIRED);
    } finally {
      await later.close();
    }
  });

  it("the same Telegram user through the login widget and the Mini App is one account", async () => {
    const browser = createSignInBrowser(t.app);
    const { session_id } = await browser.oauthUrls();
    const widget = await browser.request("/api/auth/oauth/telegram/complete", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        tgAuthResult: encodeTgAuthResult(await signTelegramAuth({ id: 777005, first_name: "Виджет" }, { nowS: NOW_S })),
        session_id,
      }),
    });
    expect(widget.status).toBe(200);
    const viaWidget = (await widget.json()).user;
    const mini = await post({ init_data: await launch(777005, { name: "Другое имя" }) });
    expect(mini.status).toBe(200);
    const viaMini = (await mini.json()).user;
    expect(viaMini.id).toBe(viaWidget.id);
    // The names the person had are kept.
    expect(viaMini.first_name).toBe("Виджет");
    expect(await t.ctx.db.select().from(users).where(eq(users.telegram_id, "777005"))).toHaveLength(1);
  });

  it("refuses a banned user with 403 and the ban's message", async () => {
    await createUser(t.ctx.db, { telegram_id: "777006", is_banned: true, ban_reason: "Спам" });
    const res = await post({ init_data: await launch(777006) });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, banned: true });
    expect(body.access_token).toBeUndefined();
  });

  it("stores the answer of requestWriteAccess for the signed-in Telegram user", async () => {
    const signed = await (await post({ init_data: await launch(777007, { allows: false }) })).json();
    const put = (body: unknown, token = signed.access_token) =>
      t.app.request("/api/auth/telegram/webapp/write-access", {
        method: "PUT",
        headers: { "content-type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    expect((await put({ allowed: "yes" })).status).toBe(400);
    const res = await put({ allowed: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, allows_write_to_pm: true });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, signed.user.id));
    expect(row.allows_write_to_pm).toBe(true);
    expect((await put({ allowed: true }, "bad")).status).toBe(401);
  });

  it("shares the sign-in rate limit of the other sign-ins", async () => {
    const limited = await createTestApp({
      env: { TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN, AUTH_RATE_LIMIT_PER_MIN: "2" },
      clock: { now: () => new Date(NOW_S * 1000) },
    });
    try {
      const call = (path: string, init: RequestInit) => limited.app.request(path, init);
      expect((await call("/api/auth/oauth/urls", {})).status).toBe(200);
      const body = JSON.stringify({ init_data: await launch(777008) });
      const init = { method: "POST", headers: { "content-type": "application/json" }, body };
      expect((await call("/api/auth/telegram/webapp", init)).status).toBe(200);
      expect((await call("/api/auth/telegram/webapp", init)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("the hash, as Telegram specifies it", () => {
  it('matches an independent computation: secret = HMAC-SHA256(key "WebAppData", token), sorted lines', async () => {
    const fields = { user: '{"id":1}', auth_date: "1700000000", query_id: "Q", hash: "ignored" };
    const secret = createHmac("sha256", "WebAppData").update(TEST_BOT_TOKEN).digest();
    const expected = createHmac("sha256", secret)
      .update('auth_date=1700000000\nquery_id=Q\nuser={"id":1}')
      .digest("hex");
    expect(await webAppHash(TEST_BOT_TOKEN, fields)).toBe(expected);
  });
});

describe("without a bot token", () => {
  it("answers 503 to a well-formed call", async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.request("/api/auth/telegram/webapp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ init_data: await launch(777009) }),
      });
      expect(res.status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});
