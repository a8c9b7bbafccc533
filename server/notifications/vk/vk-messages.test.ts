/**
 * Issue 36, VK community messages, against the VK API double (VK's JSON) and the Bot API double:
 * the Callback API's secret and confirmation; consent bound by the key and by a VK ID sign-in,
 * unbound by `message_deny`; the artist's channels; the outbox's VK rows sent with `peer_id` and a
 * `random_id` of the row (a retry after a lost answer is delivered once); 901 stops the channel;
 * 6/9/29 paused; the community's pace; a Telegram 403 and a VK 901 each fall back to the other once.
 */
import { eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { artistChannels, telegramOutbox } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser } from "../../testing/factories.ts";
import { createSignInBrowser } from "../../testing/sign-in-browser.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { startVkApiDouble, type VkApiDouble } from "../../testing/vk-api-double.ts";
import { startVkDouble, type VkDouble } from "../../testing/vk-double.ts";
import { createNotifications, type Notifications } from "../notifications.ts";
import { decisionChangeKey, type DecisionNotice } from "../outbox.ts";
import type { SenderOptions } from "../sender.ts";
import { VK_CONSENT_LOST, vkRandomId } from "./vk-delivery.ts";
import { telegramHtmlToPlain } from "./plain-text.ts";
import { createPace, createVkCaller } from "./vk-api.ts";

const START = Date.UTC(2026, 10, 1, 12, 0, 0);
let nowMs = START;
const clock = { now: () => new Date(nowMs) };
const SENDER: SenderOptions = { random: () => 0.5, baseDelayMs: 4_000, maxAttempts: 8, leaseMs: 60_000 };
const PUBLIC_URL = "http://app.test";

let vkApi: VkApiDouble;
let vkId: VkDouble;
let bot: TelegramBotDouble;
let t: TestApp;
let n: Notifications;
let seq = 0;

beforeAll(async () => {
  vkApi = await startVkApiDouble();
  vkId = await startVkDouble();
  bot = await startTelegramBotDouble();
  t = await createTestApp({
    env: {
      ...vkApi.env,
      PUBLIC_URL,
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      VK_CLIENT_ID: vkId.clientId,
      VK_ID_BASE_URL: vkId.url,
      DECISION_NOTIFY_HOLD_S: "0",
      AUTH_RATE_LIMIT_PER_MIN: "1000",
    },
    clock,
  });
});
afterAll(async () => {
  await t.close();
  await vkApi.stop();
  await vkId.stop();
  await bot.stop();
});
beforeEach(async () => {
  nowMs = START;
  bot.calls.length = 0;
  vkApi.calls.length = 0;
  vkApi.delivered.length = 0;
  await t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
  n = createNotifications(t.ctx, SENDER);
});
afterEach(() => n.sender.stop());

const vkUserId = () => String(300_000_000 + ++seq);

function notice(userId: number, over: Partial<DecisionNotice> = {}): DecisionNotice {
  seq++;
  return {
    key: decisionChangeKey(seq, "label_koster", 1),
    userId,
    trackName: "Artist & Co - <Title>.mp3",
    direction: "label_koster",
    outcome: "accepted",
    message: "Берём в релиз",
    ...over,
  };
}

async function api(path: string, userId: number, init: RequestInit = {}) {
  const { access_token } = await t.ctx.tokens.issue(userId);
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${access_token}`);
  if (init.body) headers.set("content-type", "application/json");
  const res = await t.app.request(`/api${path}`, { ...init, headers });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

const consent = (userId: number) => api("/profile/vk-messages", userId);

/** An artist whose VK account allowed the community's messages through the profile's key. */
async function vkArtist(opts: { telegram?: boolean } = {}) {
  const artist = await createUser(t.ctx.db, { telegram_id: opts.telegram ? String(700_000_000 + ++seq) : null });
  const vkUser = vkUserId();
  const { body } = await consent(artist.id);
  expect(await vkApi.allow(t.app, vkUser, body.key as string)).toEqual({ status: 200, text: "ok" });
  return { artist, vkUser };
}

async function rows() {
  return await t.ctx.db.select().from(telegramOutbox).orderBy(telegramOutbox.id);
}

describe("POST /api/vk/callback", () => {
  const event = (over: Record<string, unknown> = {}) => ({
    type: "wall_post_new",
    object: {},
    group_id: vkApi.groupId,
    event_id: "e1",
    secret: vkApi.secret,
    ...over,
  });

  it("answers the confirmation string to `confirmation` and `ok` to the rest, with the community's secret", async () => {
    expect(await vkApi.post(t.app, event({ type: "confirmation" }))).toEqual({
      status: 200,
      text: vkApi.confirmation,
    });
    expect(await vkApi.post(t.app, event())).toEqual({ status: 200, text: "ok" });
  });

  it("refuses a wrong or missing secret, another community and a body that is not an event", async () => {
    for (
      const body of [
        event({ type: "confirmation", secret: "guess" }),
        event({ secret: undefined }),
        event({ group_id: vkApi.groupId + 1 }),
      ]
    ) {
      const res = await vkApi.post(t.app, body);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toEqual({ success: false, error: "Неверный секрет Callback API" });
      expect(res.text).not.toContain(vkApi.confirmation);
    }
    expect((await vkApi.post(t.app, { hello: 1 })).status).toBe(400);
    expect((await vkApi.post(t.app, event({ type: "message_allow", object: { user_id: "x" } }))).status).toBe(400);
  });

  it("is not there without the VK community's settings", async () => {
    const bare = await createTestApp();
    try {
      const res = await vkApi.post(bare.app, event({ type: "confirmation" }));
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe("consent", () => {
  it("binds the VK user of `message_allow` to the account the key names, and `message_deny` unbinds", async () => {
    const artist = await createUser(t.ctx.db, { telegram_id: null });
    const first = await consent(artist.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, group_id: vkApi.groupId, allowed: false, channels: [] });
    const key = first.body.key as string;
    expect(key.length).toBeLessThanOrEqual(256);
    const vkUser = vkUserId();
    expect(await vkApi.allow(t.app, vkUser, key)).toEqual({ status: 200, text: "ok" });
    expect((await consent(artist.id)).body).toMatchObject({ allowed: true, channels: ["vk"] });
    const [row] = await t.ctx.db.select().from(artistChannels).where(eq(artistChannels.user_id, artist.id));
    expect(row).toMatchObject({ vk_user_id: vkUser, vk_allowed: true });

    expect(await vkApi.deny(t.app, vkUser)).toEqual({ status: 200, text: "ok" });
    expect((await consent(artist.id)).body).toMatchObject({ allowed: false, channels: [] });
    expect(await n.outbox.enqueue(notice(artist.id))).toBe(false);
  });

  it("binds nobody with a forged or expired key", async () => {
    const artist = await createUser(t.ctx.db, { telegram_id: null });
    const key = (await consent(artist.id)).body.key as string;
    const forged = key.slice(0, -3) + (key.endsWith("AAA") ? "BBB" : "AAA");
    await vkApi.allow(t.app, vkUserId(), forged);
    nowMs += 31 * 60_000;
    await vkApi.allow(t.app, vkUserId(), key);
    const bound = await t.ctx.db.select().from(artistChannels).where(eq(artistChannels.user_id, artist.id));
    expect(bound.filter((r) => r.vk_user_id !== null)).toEqual([]);
  });

  it("binds an artist signed in with VK ID by their VK id at once, allowed as isMessagesFromGroupAllowed says", async () => {
    const vkUser = vkUserId();
    vkId.user = { user_id: vkUser, first_name: "Вера", last_name: "Вконтактова" };
    vkApi.setAllowed(vkUser, true);
    const browser = createSignInBrowser(t.app);
    const urls = await browser.oauthUrls();
    const back = new URL((await fetch(urls.vk!, { redirect: "manual" })).headers.get("location")!);
    const q = Object.fromEntries(back.searchParams);
    const res = await browser.request(`/api/auth/oauth/vk/callback?${new URLSearchParams({ ...q })}`);
    expect(res.status).toBe(302);
    const [row] = await t.ctx.db.select().from(artistChannels).where(eq(artistChannels.vk_user_id, vkUser));
    expect(row).toMatchObject({ vk_allowed: true });
    expect(vkApi.calls.map((c) => [c.method, c.params.user_id])).toEqual([
      ["messages.isMessagesFromGroupAllowed", vkUser],
    ]);
    expect((await consent(row.user_id)).body).toMatchObject({ allowed: true, channels: ["vk"] });
  });

  it("keeps the artist's channels; refuses an empty, unknown or repeated one", async () => {
    const { artist } = await vkArtist({ telegram: true });
    expect((await consent(artist.id)).body.channels).toEqual(["telegram", "vk"]);
    const put = (channels: unknown) =>
      api("/profile/channels", artist.id, { method: "PUT", body: JSON.stringify({ channels }) });
    expect((await put(["vk"])).body).toEqual({ success: true, channels: ["vk"] });
    expect((await consent(artist.id)).body.channels).toEqual(["vk"]);
    for (const bad of [[], ["sms"], ["vk", "vk"], "vk"]) {
      const res = await put(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await put(["vk", "telegram"])).body).toEqual({ success: true, channels: ["telegram", "vk"] });
  });

  it("gives no token or secret in its answers", async () => {
    const { artist } = await vkArtist();
    const text = JSON.stringify((await consent(artist.id)).body);
    expect(text).not.toContain(vkApi.token);
    expect(text).not.toContain(vkApi.secret);
    expect(text).not.toContain(vkApi.confirmation);
  });
});

describe("sending through VK", () => {
  it("sends the Telegram text as plain text to the VK user, with the row's id as random_id", async () => {
    const { artist, vkUser } = await vkArtist();
    expect(await n.outbox.enqueue(notice(artist.id))).toBe(true);
    const [row] = await rows();
    expect(row).toMatchObject({ channel: "vk", chat_id: `vk:${vkUser}`, status: "pending" });
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
    expect(vkApi.delivered).toHaveLength(1);
    const sent = vkApi.delivered[0];
    expect(sent.peer_id).toBe(vkUser);
    expect(sent.random_id).toBe(String(row.id));
    expect(sent.message).toBe(telegramHtmlToPlain(row.text));
    expect(sent.message).toContain("Трек Artist & Co - <Title>\nНаправление: ");
    expect(sent.message).not.toMatch(/<b>|&amp;|&lt;/);
    expect(bot.calls).toEqual([]);
  });

  it("with both channels, tells the artist through both", async () => {
    const { artist } = await vkArtist({ telegram: true });
    await n.outbox.enqueue(notice(artist.id));
    expect((await rows()).map((r) => r.channel)).toEqual(["telegram", "vk"]);
    await n.sender.runOnce();
    expect(vkApi.delivered).toHaveLength(1);
    expect(bot.delivered).toHaveLength(1);
  });

  it("a retry after a lost answer is the same message to VK, delivered once", async () => {
    const { artist } = await vkArtist();
    await n.outbox.enqueue(notice(artist.id));
    vkApi.failNext({ kind: "drop" });
    expect(await n.sender.runOnce()).toMatchObject({ sent: 0, retried: 1 });
    nowMs += 60_000;
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
    const sends = vkApi.calls.filter((c) => c.method === "messages.send");
    expect(sends).toHaveLength(2);
    expect(sends[0].params.random_id).toBe(sends[1].params.random_id);
    expect(vkApi.delivered).toHaveLength(1);
  });

  it("901 marks the consent lost and stops the channel; the message goes to Telegram once", async () => {
    const { artist, vkUser } = await vkArtist({ telegram: true });
    await api("/profile/channels", artist.id, { method: "PUT", body: JSON.stringify({ channels: ["vk"] }) });
    await n.outbox.enqueue(notice(artist.id));
    await n.outbox.enqueue(notice(artist.id));
    expect((await rows()).map((r) => r.channel)).toEqual(["vk", "vk"]);
    // The VK user withdrew it where the site did not hear (no message_deny).
    vkApi.setAllowed(vkUser, false);
    expect(await n.sender.runOnce()).toMatchObject({ blocked: 1 });
    const after = await rows();
    expect(after.filter((r) => r.channel === "vk").map((r) => [r.status, r.last_error])).toEqual([
      ["blocked", VK_CONSENT_LOST],
      ["blocked", VK_CONSENT_LOST],
    ]);
    expect(vkApi.calls.filter((c) => c.method === "messages.send")).toHaveLength(1);
    const [stored] = await t.ctx.db.select().from(artistChannels).where(eq(artistChannels.user_id, artist.id));
    expect(stored.vk_allowed).toBe(false);
    expect(after.filter((r) => r.channel === "telegram")).toHaveLength(2);
    // The Telegram rows are the fallback: one per message, sent; nothing more goes to VK.
    nowMs += 5_000;
    await n.sender.runOnce();
    expect(bot.delivered).toHaveLength(2);
    expect(vkApi.calls.filter((c) => c.method === "messages.send")).toHaveLength(1);
    await n.outbox.enqueue(notice(artist.id));
    expect((await rows()).at(-1)?.channel).toBe("telegram");
  });

  it("a Telegram 403 falls back to VK once, and a VK 901 then does not come back", async () => {
    const { artist, vkUser } = await vkArtist({ telegram: true });
    await api("/profile/channels", artist.id, { method: "PUT", body: JSON.stringify({ channels: ["telegram"] }) });
    await n.outbox.enqueue(notice(artist.id));
    expect((await rows()).map((r) => r.channel)).toEqual(["telegram"]);
    bot.failNext({ kind: "blocked" });
    expect(await n.sender.runOnce()).toMatchObject({ blocked: 1, sent: 1 });
    expect(vkApi.delivered).toHaveLength(1);
    expect((await rows()).map((r) => [r.channel, r.status])).toEqual([["telegram", "blocked"], ["vk", "sent"]]);

    // The other way round: VK refuses, Telegram was already tried for that message: no third row.
    await n.outbox.enqueue(notice(artist.id));
    bot.failNext({ kind: "blocked" });
    vkApi.setAllowed(vkUser, false);
    nowMs += 5_000;
    await n.sender.runOnce();
    const last = (await rows()).slice(2);
    expect(last.map((r) => [r.channel, r.status])).toEqual([["telegram", "blocked"], ["vk", "blocked"]]);
  });

  it("6, 9 and 29 are tried again after a pause, without counting as a failed try", async () => {
    const { artist } = await vkArtist();
    await n.outbox.enqueue(notice(artist.id));
    for (const [code, pauseMs] of [[6, 1_000], [9, 30_000], [29, 600_000]]) {
      vkApi.failNext({ kind: "error", code });
      expect(await n.sender.runOnce()).toMatchObject({ retried: 1 });
      const [row] = await rows();
      expect(row.status).toBe("pending");
      expect(row.attempts).toBe(0);
      expect(row.next_attempt_at.getTime()).toBe(nowMs + pauseMs);
      nowMs += pauseMs;
    }
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
  });

  it("keeps the community to 20 sends a second, across the outbox", async () => {
    const artists = [];
    for (let i = 0; i < 23; i++) artists.push(await vkArtist());
    for (const { artist } of artists) await n.outbox.enqueue(notice(artist.id));
    expect(await n.sender.runOnce()).toMatchObject({ sent: 20 });
    nowMs += 1_001;
    expect(await n.sender.runOnce()).toMatchObject({ sent: 3 });
    expect(vkApi.delivered).toHaveLength(23);
  });
});

describe("random_id", () => {
  it("is the row's id for one row and the same number for the same rows of a joined message", () => {
    expect(vkRandomId([42])).toBe(42);
    expect(vkRandomId([7, 9])).toBe(vkRandomId([9, 7]));
    expect(vkRandomId([7, 9])).not.toBe(vkRandomId([7, 10]));
    expect(vkRandomId([7, 9])).toBeGreaterThanOrEqual(2 ** 30);
    expect(vkRandomId([7, 9])).toBeLessThan(2 ** 31);
  });
});

describe("the VK caller", () => {
  const community = {
    groupId: 1,
    token: "vk1.a.secret-token",
    secret: "s",
    confirmation: "c",
    apiUrl: "http://vk.invalid",
  };

  it("never gives the token back in an error's text", async () => {
    const echo = createVkCaller(
      () => Promise.resolve(Response.json({ error: { error_code: 5, error_msg: `bad token ${community.token}` } })),
      community,
    );
    expect(await echo("messages.send", {})).toEqual({ kind: "error", code: 5, message: "bad token <token>" });
    const broken = createVkCaller(() => Promise.reject(new Error(`refused: ${community.token}`)), community);
    const reply = await broken("messages.send", {});
    expect(reply.kind).toBe("network");
    expect(JSON.stringify(reply)).not.toContain(community.token);
  });

  it("lets at most 20 calls start in any second", async () => {
    let now = 0;
    const starts: number[] = [];
    const pace = createPace(20, 1_000, () => now, (ms) => {
      now += ms;
      return Promise.resolve();
    });
    for (let i = 0; i < 45; i++) {
      await pace.turn();
      starts.push(now);
    }
    expect(starts.filter((t) => t < 1_000)).toHaveLength(20);
    expect(starts.filter((t) => t >= 1_000 && t < 2_000)).toHaveLength(20);
    expect(starts.at(-1)).toBe(2_000);
  });
});

describe("the Telegram text read as plain text", () => {
  it("drops the tags, decodes the entities and keeps a link's address", () => {
    expect(
      telegramHtmlToPlain('<b>Трек</b> &lt;A&amp;B&gt; &quot;x&quot;\n<a href="https://a.b/?q=1&amp;r=2">здесь</a>'),
    )
      .toBe('Трек <A&B> "x"\nздесь (https://a.b/?q=1&r=2)');
    expect(telegramHtmlToPlain('<a href="https://a.b/">https://a.b/</a> &#128077;')).toBe("https://a.b/ 👍");
  });
});
