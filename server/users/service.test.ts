/**
 * The users service is the one place `users` rows change (docs/decisions/0120): every write drops
 * the short session cache itself (decision 0014), so whichever path changed a person's row, their
 * very next authenticated call sees the change. The cache is warmed before each write; a write that
 * forgot to drop it would be answered from the cache for another 5 s and these tests would fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { createSignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../testing/telegram.ts";
import { startVkDouble, type VkDouble } from "../testing/vk-double.ts";

const PUBLIC_URL = "http://app.test";
let t: TestApp;
let vk: VkDouble;

beforeAll(async () => {
  vk = await startVkDouble();
  t = await createTestApp({
    env: {
      PUBLIC_URL,
      VK_CLIENT_ID: vk.clientId,
      VK_ID_BASE_URL: vk.url,
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      AUTH_RATE_LIMIT_PER_MIN: "1000",
    },
  });
});
afterAll(async () => {
  await t.close();
  await vk.stop();
});

/** A signed-in session whose row is in the session cache. */
async function cachedSession(user: User) {
  const auth = await signIn(t.ctx, user);
  const token = auth.access_token;
  expect((await t.ctx.tokens.authenticate(token))?.user.id).toBe(user.id);
  return {
    headers: auth.headers,
    /** The row the next authenticated call works with; null when the session no longer counts. */
    seen: async () => (await t.ctx.tokens.authenticate(token))?.user ?? null,
  };
}

const me = async (headers: Record<string, string>) => {
  const res = await t.app.request("/api/auth/me", { headers });
  return { status: res.status, user: res.status === 200 ? (await res.json()).user : null };
};

describe("users service: every write is seen on the next authenticated call", () => {
  it("update, ban and unban", async () => {
    const user = await createUser(t.ctx.db);
    const s = await cachedSession(user);
    await t.ctx.users.update(user.id, { city: "Пермь" });
    expect((await s.seen())?.city).toBe("Пермь");
    await t.ctx.users.update(user.id, { is_moderator: true, moderator_categories: "label_koster" });
    expect((await s.seen())?.is_moderator).toBe(true);
    // A ban ends the sessions: the cached one must not keep answering.
    await t.ctx.users.ban(user.id, "спам");
    expect(await s.seen()).toBeNull();
    await t.ctx.users.unban(user.id);
    const again = await cachedSession((await t.ctx.users.byId(user.id))!);
    await t.ctx.users.update(user.id, { bio: "снова здесь" });
    expect((await again.seen())?.bio).toBe("снова здесь");
  });

  it("a ban set through a plain update also ends the sessions", async () => {
    const user = await createUser(t.ctx.db);
    const s = await cachedSession(user);
    await t.ctx.users.update(user.id, { is_banned: true });
    expect(await s.seen()).toBeNull();
  });

  it("remove, sign-in time, phone claims and the Telegram fold", async () => {
    const gone = await createUser(t.ctx.db);
    const goneSession = await cachedSession(gone);
    await t.ctx.users.remove(gone.id, gone.username);
    expect(await goneSession.seen()).toBeNull();

    const signer = await createUser(t.ctx.db);
    const signerSession = await cachedSession(signer);
    await t.ctx.users.recordSignIn(signer.id);
    expect((await signerSession.seen())?.last_login_at).not.toBeNull();

    const claimant = await createUser(t.ctx.db, { telegram_id: "61001", pending_vk_link_phone: "79990610001" });
    const claimantSession = await cachedSession(claimant);
    await t.ctx.users.meetPhoneClaim(claimant.id, "79990610001", "610001", { first_name: "Вера" });
    expect(await claimantSession.seen()).toMatchObject({
      vk_id: "610001",
      first_name: "Вера",
      pending_vk_link_phone: null,
    });

    const dropped = await createUser(t.ctx.db, { telegram_id: "61002", pending_vk_link_phone: "79990610002" });
    const droppedSession = await cachedSession(dropped);
    expect(await t.ctx.users.dropPhoneClaims("79990610002")).toEqual([dropped.id]);
    expect((await droppedSession.seen())?.pending_vk_link_phone).toBeNull();

    const keeper = await createUser(t.ctx.db, { vk_id: "61003" });
    const empty = await createUser(t.ctx.db, { telegram_id: "61004" });
    const keeperSession = await cachedSession(keeper);
    const emptySession = await cachedSession(empty);
    await t.ctx.users.absorb(keeper.id, { telegram_id: "61004" }, { id: empty.id, telegram_id: "61004" });
    expect((await keeperSession.seen())?.telegram_id).toBe("61004");
    expect(await emptySession.seen()).toBeNull();
  });

  it("deleting a user keeps their tracks as guest tracks under their name", async () => {
    const user = await createUser(t.ctx.db, { username: "leaving_artist" });
    const track = await createTrack(t.ctx.db, { user_id: user.id });
    await t.ctx.users.remove(user.id, user.username);
    const view = await t.ctx.tracks.get("*", track.id);
    expect(view).toMatchObject({ user_id: null, guest_username: "leaving_artist" });
  });
});

describe("each path that changes a person's row shows on their next call", () => {
  it("an administrator's edit", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const user = await createUser(t.ctx.db);
    const s = await cachedSession(user);
    const res = await t.app.request(`/api/admin/users/${user.id}`, {
      method: "PUT",
      headers: { ...(await signIn(t.ctx, admin)).headers, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Отредактирован" }),
    });
    expect(res.status).toBe(200);
    expect((await me(s.headers)).user?.first_name).toBe("Отредактирован");
  });

  it("an administrator's delete ends the person's session", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const user = await createUser(t.ctx.db);
    const s = await cachedSession(user);
    const res = await t.app.request(`/api/admin/users/${user.id}`, {
      method: "DELETE",
      headers: (await signIn(t.ctx, admin)).headers,
    });
    expect(res.status).toBe(200);
    expect((await me(s.headers)).status).toBe(401);
  });

  it("a profile update", async () => {
    const user = await createUser(t.ctx.db);
    const s = await cachedSession(user);
    const form = new FormData();
    form.set("bio", "Пишу нейрофанк");
    const res = await t.app.request("/api/profile/update", { method: "POST", headers: s.headers, body: form });
    expect(res.status).toBe(200);
    expect((await me(s.headers)).user?.bio).toBe("Пишу нейрофанк");
  });

  it("linking a Telegram account, folding the empty account that held it", async () => {
    const user = await createUser(t.ctx.db, { vk_id: "62001" });
    const empty = await createUser(t.ctx.db, { telegram_id: "62002" });
    const s = await cachedSession(user);
    const emptySession = await cachedSession(empty);
    const res = await t.app.request("/api/profile/link-accounts", {
      method: "POST",
      headers: { ...s.headers, "content-type": "application/json" },
      body: JSON.stringify({
        action: "link_vk_to_telegram",
        telegram_hash: encodeTgAuthResult(await signTelegramAuth({ id: 62002 })),
      }),
    });
    expect(res.status).toBe(200);
    expect((await me(s.headers)).user?.telegram_id).toBe("62002");
    expect((await me(emptySession.headers)).status).toBe(401);
  });

  it("a Telegram sign-in fills the names a second session then shows", async () => {
    const user = await createUser(t.ctx.db, { telegram_id: "63001" });
    const s = await cachedSession(user);
    const res = await createSignInBrowser(t.app).completeTelegram(
      await signTelegramAuth({ id: 63001, first_name: "Алиса", last_name: "Кузнецова" }),
    );
    expect(res.status).toBe(200);
    expect((await me(s.headers)).user).toMatchObject({ first_name: "Алиса", last_name: "Кузнецова" });
  });

  it("a VK link from the profile that meets the phone claim joins the account, seen by its open session", async () => {
    const claimant = await createUser(t.ctx.db, { telegram_id: "64001" });
    const s = await cachedSession(claimant);
    const claim = await t.app.request("/api/profile/link-accounts", {
      method: "POST",
      headers: { ...s.headers, "content-type": "application/json" },
      body: JSON.stringify({ action: "link_telegram_to_vk", phone_number: "+7 999 064-00-01" }),
    });
    expect(claim.status).toBe(200);
    await me(s.headers);

    vk.user = { user_id: "640001", first_name: "Пётр", phone: "+79990640001" };
    const browser = createSignInBrowser(t.app);
    // Started from the account's own signed-in session (decision 0204).
    const urls = await (await browser.request("/api/auth/oauth/urls", { headers: s.headers })).json();
    const authorized = await fetch(urls.vk!, { redirect: "manual" });
    await authorized.body?.cancel();
    const back = new URL(authorized.headers.get("location")!);
    const q = Object.fromEntries(back.searchParams);
    const res = await browser.request(
      `/api/auth/oauth/vk/callback?${new URLSearchParams({ code: q.code, state: q.state, device_id: q.device_id })}`,
    );
    expect(new URL(res.headers.get("location")!).searchParams.get("vk_linked")).toBe("1");
    expect((await me(s.headers)).user).toMatchObject({ id: claimant.id, vk_id: "640001", first_name: "Пётр" });
  });
});
