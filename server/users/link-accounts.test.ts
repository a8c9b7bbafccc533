import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks, users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { createSignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../testing/telegram.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN } });
});
afterAll(() => t.close());

async function link(user: Awaited<ReturnType<typeof createUser>>, body: unknown) {
  const { headers } = await signIn(t.ctx, user);
  return await t.app.request("/api/profile/link-accounts", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
const reload = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe("link_vk_to_telegram", () => {
  it("attaches a verified Telegram identity to the current account", async () => {
    const me = await createUser(t.ctx.db, { vk_id: "9100" });
    const telegram_hash = encodeTgAuthResult(await signTelegramAuth({ id: 7100, first_name: "Лена" }));
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBeTruthy();
    expect((await reload(me.id)).telegram_id).toBe("7100");
  });

  it("never links on an unproven claim: a bad signature changes nothing", async () => {
    const me = await createUser(t.ctx.db, { vk_id: "9101" });
    const result = await signTelegramAuth({ id: 7101 });
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: { ...result, id: 7999 } });
    expect(res.status).toBe(401);
    expect((await reload(me.id)).telegram_id).toBeNull();
  });

  it("folds an empty Telegram-only account into the current one", async () => {
    const other = await createUser(t.ctx.db, { telegram_id: "7102" });
    const me = await createUser(t.ctx.db, { vk_id: "9102" });
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: await signTelegramAuth({ id: 7102 }) });
    expect(res.status).toBe(200);
    expect((await reload(me.id)).telegram_id).toBe("7102");
    expect(await reload(other.id)).toBeUndefined();
  });

  it("refuses when the Telegram identity owns an account with tracks, and moves nothing", async () => {
    const other = await createUser(t.ctx.db, { telegram_id: "7103" });
    const track = await createTrack(t.ctx.db, { user_id: other.id });
    const me = await createUser(t.ctx.db, { vk_id: "9103" });
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: await signTelegramAuth({ id: 7103 }) });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toContain("обратитесь к администратору");
    expect((await reload(me.id)).telegram_id).toBeNull();
    expect((await reload(other.id)).telegram_id).toBe("7103");
    const [trackRow] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(trackRow.user_id).toBe(other.id);
  });

  it("refuses to take over a banned or staff account's Telegram", async () => {
    await createUser(t.ctx.db, { telegram_id: "7104", is_banned: true });
    await createUser(t.ctx.db, { telegram_id: "7105", is_moderator: true, moderator_categories: "*" });
    const me = await createUser(t.ctx.db, { vk_id: "9104" });
    for (const id of [7104, 7105]) {
      const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: await signTelegramAuth({ id }) });
      expect(res.status, String(id)).toBe(409);
    }
  });

  it("a signed result works once: one already used to sign in cannot link (and fold) that account", async () => {
    const result = await signTelegramAuth({ id: 7108, first_name: "Жертва" });
    const signedIn = await createSignInBrowser(t.app).completeTelegram(result);
    expect(signedIn.status).toBe(200);
    const victimId = (await signedIn.json()).user.id;
    const me = await createUser(t.ctx.db, { vk_id: "9108" });
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: encodeTgAuthResult(result) });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("Эти данные авторизации Telegram уже использованы. Войдите снова.");
    expect((await reload(me.id)).telegram_id).toBeNull();
    expect((await reload(victimId)).telegram_id).toBe("7108");
  });

  it("refuses a second, different Telegram", async () => {
    const me = await createUser(t.ctx.db, { vk_id: "9106", telegram_id: "7106" });
    const res = await link(me, { action: "link_vk_to_telegram", telegram_hash: await signTelegramAuth({ id: 7107 }) });
    expect(res.status).toBe(409);
    expect((await reload(me.id)).telegram_id).toBe("7106");
  });
});

describe("link_telegram_to_vk", () => {
  it("records the phone for the next VK sign-in", async () => {
    const me = await createUser(t.ctx.db, { telegram_id: "7200" });
    const res = await link(me, { action: "link_telegram_to_vk", phone_number: "+7 (999) 123-45-67" });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
    const row = await reload(me.id);
    expect(row.pending_vk_link_phone).toBe("79991234567");
    expect(row.vk_id).toBeNull();
  });

  it("refuses a phone another account already waits for", async () => {
    await createUser(t.ctx.db, { telegram_id: "7201", pending_vk_link_phone: "79991230000" });
    const me = await createUser(t.ctx.db, { telegram_id: "7202" });
    const res = await link(me, { action: "link_telegram_to_vk", phone_number: "89991230000" });
    expect(res.status).toBe(409);
  });

  it("refuses when VK is already linked, and rejects a malformed phone", async () => {
    const linked = await createUser(t.ctx.db, { telegram_id: "7203", vk_id: "9203" });
    expect((await link(linked, { action: "link_telegram_to_vk", phone_number: "79990000001" })).status).toBe(409);
    const me = await createUser(t.ctx.db, { telegram_id: "7204" });
    const bad = await link(me, { action: "link_telegram_to_vk", phone_number: "call me" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Некорректный номер телефона");
  });
});

describe("input", () => {
  it("answers 400 for empty input", async () => {
    const me = await createUser(t.ctx.db);
    for (
      const body of [
        {},
        { action: "link_telegram_to_vk", phone_number: "" },
        { action: "link_vk_to_telegram", telegram_hash: "" },
      ]
    ) {
      const res = await link(me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await link(me, { action: "merge_everything", phone_number: "79990000000" });
    expect(unknown.status).toBe(400);
  });

  it("requires sign-in", async () => {
    const res = await t.app.request("/api/profile/link-accounts", { method: "POST" });
    expect(res.status).toBe(401);
  });
});
