import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks, users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, signIn } from "../testing/factories.ts";
import { createSignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../testing/telegram.ts";
import { startVkDouble, type VkDouble } from "../testing/vk-double.ts";

/**
 * The account hijack of issue 10 item 3: an attacker's Telegram account claims the victim's phone
 * with `link_telegram_to_vk`; the victim's next VK sign-in used to land in the attacker's account
 * and delete the victim's own. A phone claim may only link a VK identity that has no account here
 * yet (docs/decisions/0018).
 */
const PUBLIC_URL = "http://app.test";
let vk: VkDouble;
let t: TestApp;

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

/** A full VK sign-in in one browser, through the VK ID double; the account it lands in. */
async function signInWithVk(person: VkDouble["user"]) {
  vk.user = person;
  const browser = createSignInBrowser(t.app);
  const urls = await browser.oauthUrls();
  const authorize = await fetch(urls.vk!, { redirect: "manual" });
  await authorize.body?.cancel();
  const q = new URL(authorize.headers.get("location")!).searchParams;
  const res = await browser.request(`/api/auth/oauth/vk/callback?${new URLSearchParams({
    code: q.get("code")!,
    state: q.get("state")!,
    device_id: q.get("device_id")!,
  })}`);
  const back = new URL(res.headers.get("location")!);
  const code = back.searchParams.get("login_code");
  if (!code) return { user: null, error: back.searchParams.get("error") };
  const exchanged = await browser.request("/api/auth/oauth/login-code", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login_code: code }),
  });
  const { access_token: access } = await exchanged.json();
  const me = await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } });
  return { user: (await me.json()).user as { id: number; vk_id: string | null; telegram_id: string | null } };
}

/** The attacker signs up with Telegram and claims a phone for their account. */
async function attackerClaims(telegramId: number, phone: string) {
  const browser = createSignInBrowser(t.app);
  const signUp = await browser.completeTelegram(
    encodeTgAuthResult(await signTelegramAuth({ id: telegramId, first_name: "Мошенник" })),
  );
  const { user } = await signUp.json();
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
  const { headers } = await signIn(t.ctx, row);
  const claim = await t.app.request("/api/profile/link-accounts", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ action: "link_telegram_to_vk", phone_number: phone }),
  });
  expect(claim.status).toBe(200);
  return user.id as number;
}

const row = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe("a phone claim cannot take over a VK account, existing or new", () => {
  it("the victim's next VK sign-in lands in the victim's own account, which stays", async () => {
    const victimVk = { user_id: "31337001", first_name: "Жертва", phone: "+7 999 313-37-01" };
    const first = await signInWithVk(victimVk);
    const victimId = first.user!.id;

    const attackerId = await attackerClaims(6660001, "8 (999) 313-37-01");
    const next = await signInWithVk(victimVk);

    expect(next.error ?? null).toBeNull();
    expect(next.user!.id).toBe(victimId);
    expect((await row(victimId))?.vk_id).toBe("31337001");
    const attacker = await row(attackerId);
    expect(attacker.vk_id).toBeNull();
    expect(attacker.pending_vk_link_phone).toBeNull();
    // The attacker's Telegram still signs in to the attacker's account only.
    const tg = await createSignInBrowser(t.app).completeTelegram(
      await signTelegramAuth({ id: 6660001, first_name: "Снова" }),
    );
    expect((await tg.json()).user.id).toBe(attackerId);
  });

  it("nor an account with tracks: nothing is moved or deleted", async () => {
    const victimVk = { user_id: "31337002", first_name: "Артист", phone: "79993133702" };
    const victimId = (await signInWithVk(victimVk)).user!.id;
    const track = await createTrack(t.ctx.db, { user_id: victimId });
    const attackerId = await attackerClaims(6660002, "+79993133702");

    const next = await signInWithVk(victimVk);
    expect(next.user!.id).toBe(victimId);
    expect((await row(attackerId)).vk_id).toBeNull();
    expect((await row(victimId)).vk_id).toBe("31337002");
    const [trackRow] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(trackRow.user_id).toBe(victimId);
  });

  it("nor a stranger's first VK sign-in: a claim made earlier links nothing, the stranger gets their own account", async () => {
    // The pre-claim (issue 20): a Telegram user claims a phone before its owner ever signs in here.
    const claimantId = await attackerClaims(6660003, "79993133703");
    const first = await signInWithVk({ user_id: "31337003", first_name: "Новичок", phone: "79993133703" });
    expect(first.error ?? null).toBeNull();
    expect(first.user!.id).not.toBe(claimantId);
    expect(first.user!.vk_id).toBe("31337003");
    expect(first.user!.telegram_id).toBeNull();
    expect((await row(claimantId)).vk_id).toBeNull();
    expect(await t.ctx.db.select().from(users).where(eq(users.vk_id, "31337003"))).toHaveLength(1);
  });
});
