import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BAN_MESSAGE } from "../../domain/ban.ts";
import { loginCodes, oauthSessions, users } from "../../db/schema.ts";
import { VK_LINK_PHONE_MISMATCH, VK_LINK_TAKEN } from "./accounts.ts";
import { LOGIN_CODE_INVALID } from "./sign-in-store.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser } from "../testing/factories.ts";
import { createSignInBrowser, type SignInBrowser } from "../testing/sign-in-browser.ts";
import { startVkDouble, type VkDouble } from "../testing/vk-double.ts";

const PUBLIC_URL = "http://app.test";
let vk: VkDouble;
let t: TestApp;
/** The browser that starts and finishes sign-ins unless a test says otherwise. */
let browser: SignInBrowser;

beforeAll(async () => {
  vk = await startVkDouble();
  t = await createTestApp({
    env: {
      PUBLIC_URL,
      VK_CLIENT_ID: vk.clientId,
      VK_ID_BASE_URL: vk.url,
      AUTH_RATE_LIMIT_PER_MIN: "1000",
    },
  });
  browser = createSignInBrowser(t.app);
});
afterAll(async () => {
  await t.close();
  await vk.stop();
});
beforeEach(() => {
  vk.user = { user_id: String(1000 + Math.floor(Math.random() * 1e6)), first_name: "Иван", last_name: "Петров" };
});

async function oauthUrls(from = browser) {
  const res = await from.request("/api/auth/oauth/urls");
  expect(res.status).toBe(200);
  return await res.json() as { success: boolean; vk: string; telegram: string | null; session_id: string };
}

/** Browser part: open the VK authorize URL and follow it back to our /login with code, state, device_id. */
async function authorize(vkUrl: string) {
  const res = await fetch(vkUrl, { redirect: "manual" });
  expect(res.status).toBe(302);
  await res.body?.cancel();
  return new URL(res.headers.get("location")!);
}

/** The tokens a callback's login code was exchanged for, by the browser that followed it. */
const exchanged = new WeakMap<URL, Record<string, string>>();

/** A token the page got for this callback address: exchanged from its `login_code`; null when none. */
function tokenIn(location: URL, key: "access_token" | "refresh_token"): string | null {
  return exchanged.get(location)?.[key] ?? null;
}

async function exchange(code: string, from = browser) {
  return await from.request("/api/auth/oauth/login-code", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login_code: code }),
  });
}

async function callback(params: Record<string, string>, from = browser) {
  const res = await from.request(`/api/auth/oauth/vk/callback?${new URLSearchParams(params)}`);
  const raw = res.headers.get("location");
  // Tokens never travel in an address (decision 0202).
  expect(raw ?? "").not.toMatch(/access_token|refresh_token/);
  const location = raw ? new URL(raw) : null;
  const code = location?.searchParams.get("login_code");
  if (location && code) {
    const answer = await exchange(code, from);
    expect(answer.status).toBe(200);
    exchanged.set(location, await answer.json());
  }
  return { res, location };
}

/** The profile's VK link: the signed-in owner asks for the addresses, then VK comes back. */
async function linkFromProfile(owner: { id: number }) {
  const { access_token } = await t.ctx.tokens.issue(owner.id);
  const res = await browser.request("/api/auth/oauth/urls", { headers: { Authorization: `Bearer ${access_token}` } });
  const urls = await res.json() as { vk: string };
  const back = await authorize(urls.vk);
  const q = Object.fromEntries(back.searchParams);
  return await callback({
    code: q.code,
    state: q.state,
    device_id: q.device_id,
    frontend_redirect: `${PUBLIC_URL}/profile`,
  });
}

/** Code, state and device_id of a VK answer for a sign-in this browser just started. */
async function freshCallbackQuery() {
  const back = await authorize((await oauthUrls()).vk);
  const q = Object.fromEntries(back.searchParams);
  return { code: q.code, state: q.state, device_id: q.device_id };
}

async function signInWithVk(frontend = `${PUBLIC_URL}/auth/vk/callback`) {
  const urls = await oauthUrls();
  const back = await authorize(urls.vk);
  const q = Object.fromEntries(back.searchParams);
  return await callback({ code: q.code, state: q.state, device_id: q.device_id, frontend_redirect: frontend });
}

describe("GET /api/auth/oauth/urls", () => {
  it("gives a VK ID authorize URL with PKCE S256 and keeps verifier and state for 10 minutes", async () => {
    const urls = await oauthUrls();
    expect(urls.success).toBe(true);
    expect(urls.telegram).toBeNull();
    expect(urls.session_id).toMatch(/^[0-9a-f]{32}$/);
    const url = new URL(urls.vk);
    expect(url.origin + url.pathname).toBe(`${vk.url}/authorize`);
    const p = url.searchParams;
    expect(p.get("response_type")).toBe("code");
    expect(p.get("client_id")).toBe(vk.clientId);
    expect(p.get("redirect_uri")).toBe(`${PUBLIC_URL}/login`);
    expect(p.get("code_challenge_method")).toBe("s256");
    expect(p.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get("scope")).toContain("vkid.personal_info");
    // Kept in the database (not the status store), bound to this browser's cookie.
    const [stored] = await t.ctx.db.select().from(oauthSessions).where(eq(oauthSessions.id, urls.session_id));
    expect(stored?.vk_state).toBe(p.get("state"));
    expect(stored?.vk_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(stored?.browser_hash).toMatch(/^[0-9a-f]{64}$/);
    const ttl = (stored.expires_at.getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it("binds the browser with an HttpOnly, SameSite=Lax cookie that stays the same across calls", async () => {
    const fresh = createSignInBrowser(t.app);
    const res = await fresh.request("/api/auth/oauth/urls");
    await res.body?.cancel();
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^oauth_browser=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/api/auth/oauth");
    expect(cookie).toContain("Max-Age=600");
    const first = fresh.cookies.get("oauth_browser");
    // The page fetches fresh addresses right after opening a provider window: the attempt in
    // progress must stay bound to this browser.
    await oauthUrls(fresh);
    expect(fresh.cookies.get("oauth_browser")).toBe(first);
  });

  it("gives different state and session for each call", async () => {
    const a = await oauthUrls();
    const b = await oauthUrls();
    expect(a.session_id).not.toBe(b.session_id);
    expect(new URL(a.vk).searchParams.get("state")).not.toBe(new URL(b.vk).searchParams.get("state"));
  });
});

describe("VK sign-in", () => {
  it("creates a user and redirects to the front end with a login code the page exchanges for both tokens", async () => {
    vk.user = { user_id: "777001", first_name: "Иван", last_name: "Петров", phone: "+7 (999) 000-11-22" };
    const { res, location } = await signInWithVk();
    expect(res.status).toBe(302);
    expect(location!.origin + location!.pathname).toBe(`${PUBLIC_URL}/auth/vk/callback`);
    const access = tokenIn(location!, "access_token")!;
    expect(tokenIn(location!, "refresh_token")).toBeTruthy();
    const me = await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } });
    const { user } = await me.json();
    expect(user).toMatchObject({
      vk_id: "777001",
      first_name: "Иван",
      last_name: "Петров",
      phone_number: "79990001122",
    });
    expect(user.username).toBe("ivan_petrov");
    const [row] = await t.ctx.db.select().from(users).where(eq(users.vk_id, "777001"));
    expect(row.last_login_at).toBeInstanceOf(Date);
  });

  it("sends a form-encoded exchange with the code verifier and device id", async () => {
    vk.requests.length = 0;
    await signInWithVk();
    const exchange = vk.requests.find((r) => r.path === "/oauth2/auth")!;
    expect(exchange.contentType).toContain("application/x-www-form-urlencoded");
    expect(exchange.form).toMatchObject({ grant_type: "authorization_code", client_id: vk.clientId });
    expect(exchange.form.code_verifier).toBeTruthy();
    expect(exchange.form.device_id).toMatch(/^dev-/);
    expect(vk.requests.find((r) => r.path === "/oauth2/user_info")?.form.access_token).toBeTruthy();
  });

  it("signs the same VK user into the same account and keeps edited names", async () => {
    vk.user = { user_id: "777002", first_name: "Олег", last_name: "Сидоров" };
    await signInWithVk();
    await t.ctx.db.update(users).set({ first_name: "Олежка" }).where(eq(users.vk_id, "777002"));
    const { location } = await signInWithVk();
    expect(tokenIn(location!, "access_token")).toBeTruthy();
    const rows = await t.ctx.db.select().from(users).where(eq(users.vk_id, "777002"));
    expect(rows).toHaveLength(1);
    expect(rows[0].first_name).toBe("Олежка");
  });

  it("gives a second Иван Петров a different username", async () => {
    vk.user = { user_id: "777003", first_name: "Иван", last_name: "Петров" };
    const { location } = await signInWithVk();
    const access = tokenIn(location!, "access_token")!;
    const { user } = await (await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } }))
      .json();
    expect(user.username).toMatch(/^ivan_petrov\d+$/);
  });

  it("accepts a frontend_redirect on PUBLIC_URL's origin, keeping its path", async () => {
    const { location } = await signInWithVk(`${PUBLIC_URL}/login`);
    expect(location!.origin + location!.pathname).toBe(`${PUBLIC_URL}/login`);
    expect(tokenIn(location!, "access_token")).toBeTruthy();
  });

  it("refuses a frontend_redirect on another origin (no open redirect)", async () => {
    for (const target of ["https://evil.example/login", "//evil.example/x", "javascript:alert(1)"]) {
      const urls = await oauthUrls();
      const q = Object.fromEntries((await authorize(urls.vk)).searchParams);
      const { res } = await callback({ ...q, frontend_redirect: target });
      expect(res.status, target).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it("uses the state only once", async () => {
    const urls = await oauthUrls();
    const q = Object.fromEntries((await authorize(urls.vk)).searchParams);
    const first = await callback(q);
    expect(tokenIn(first.location!, "access_token")).toBeTruthy();
    const again = await callback(q);
    expect(tokenIn(again.location!, "access_token")).toBeNull();
    expect(again.location!.searchParams.get("error")).toContain("Сессия авторизации истекла");
  });

  it("rejects an unknown or forged state", async () => {
    const urls = await oauthUrls();
    const q = Object.fromEntries((await authorize(urls.vk)).searchParams);
    const forged = await callback({ ...q, state: q.state.slice(0, 32) + "x".repeat(43) });
    expect(forged.location!.searchParams.get("error")).toContain("Сессия авторизации истекла");
    expect(tokenIn(forged.location!, "access_token")).toBeNull();
  });

  it("redirects with an error when code, state or device_id is missing", async () => {
    const { location } = await callback({ state: "abc" });
    expect(location!.searchParams.get("error")).toBe(
      "Отсутствуют необходимые данные для авторизации. Пожалуйста, попробуйте снова.",
    );
  });

  it("passes on an error VK reported to the browser", async () => {
    const urls = await oauthUrls();
    vk.failNext("authorize", { body: { error: "access_denied" } });
    const q = Object.fromEntries((await authorize(urls.vk)).searchParams);
    expect(q.error).toBe("access_denied");
    const { location } = await callback(q);
    expect(location!.searchParams.get("error")).toBe("access_denied");
  });

  it("treats an error answer with HTTP 200 from the token exchange as a failure", async () => {
    vk.failNext("auth", { status: 200, body: { error: "invalid_grant", error_description: "Code is expired" } });
    const { location } = await signInWithVk();
    expect(tokenIn(location!, "access_token")).toBeNull();
    expect(location!.searchParams.get("error")).toBe("Code is expired");
  });

  it("fails cleanly when user_info answers an error", async () => {
    vk.failNext("user_info", { status: 401, body: { error: "invalid_token" } });
    const { location } = await signInWithVk();
    expect(tokenIn(location!, "access_token")).toBeNull();
    expect(location!.searchParams.get("error")).toBe("invalid_token");
  });

  it("fails cleanly when VK does not answer", async () => {
    const dead = await createTestApp({
      env: { PUBLIC_URL, VK_CLIENT_ID: vk.clientId, VK_ID_BASE_URL: "http://127.0.0.1:9" },
    });
    try {
      const deadBrowser = createSignInBrowser(dead.app);
      const urls = await deadBrowser.oauthUrls();
      const state = new URL(urls.vk!).searchParams.get("state")!;
      const res = await deadBrowser.request(
        `/api/auth/oauth/vk/callback?${new URLSearchParams({ code: "c", state, device_id: "d" })}`,
      );
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("Сервер ВКонтакте не отвечает");
    } finally {
      await dead.close();
    }
  });

  it("does not let a banned user in: redirect with ban_message", async () => {
    await createUser(t.ctx.db, { vk_id: "777004", is_banned: true, ban_reason: "Нарушение правил" });
    vk.user = { user_id: "777004", first_name: "Бан" };
    const { location } = await signInWithVk();
    expect(tokenIn(location!, "access_token")).toBeNull();
    expect(location!.searchParams.get("ban_message")).toBe("Нарушение правил");
    await createUser(t.ctx.db, { vk_id: "777005", is_banned: true });
    vk.user = { user_id: "777005" };
    const second = await signInWithVk();
    expect(second.location!.searchParams.get("ban_message")).toBe(DEFAULT_BAN_MESSAGE);
  });
});

describe("VK sign-in is bound to the browser that started it (login CSRF)", () => {
  /** The attacker starts a sign-in with their own VK account and stops before the callback. */
  async function attackersLink() {
    const attacker = createSignInBrowser(t.app);
    vk.user = { user_id: "990001", first_name: "Злоумышленник" };
    const urls = await oauthUrls(attacker);
    return { attacker, q: Object.fromEntries((await authorize(urls.vk)).searchParams) };
  }

  it("signs nobody in when another browser brings the code and state, and creates no account", async () => {
    const { q } = await attackersLink();
    // The victim's browser has its own sign-in going, so it has a binding cookie of its own.
    const victim = createSignInBrowser(t.app);
    await oauthUrls(victim);
    const { res, location } = await callback({ ...q, frontend_redirect: `${PUBLIC_URL}/auth/vk/callback` }, victim);
    expect(res.status).toBe(302);
    expect(tokenIn(location!, "access_token")).toBeNull();
    expect(tokenIn(location!, "refresh_token")).toBeNull();
    expect(location!.searchParams.get("error")).toBe(
      "Сессия авторизации истекла или недействительна. Попробуйте войти снова.",
    );
    expect(await t.ctx.db.select().from(users).where(eq(users.vk_id, "990001"))).toHaveLength(0);
  });

  it("signs nobody in when the browser has no binding cookie at all", async () => {
    const { q } = await attackersLink();
    const { location } = await callback(q, createSignInBrowser(t.app));
    expect(tokenIn(location!, "access_token")).toBeNull();
    expect(location!.searchParams.get("error")).toContain("Сессия авторизации истекла");
  });

  it("a state shown to the wrong browser is spent: the attacker cannot finish it either", async () => {
    const { attacker, q } = await attackersLink();
    await callback(q, createSignInBrowser(t.app));
    const { location } = await callback(q, attacker);
    expect(tokenIn(location!, "access_token")).toBeNull();
  });

  it("the browser that started it signs in", async () => {
    const { attacker, q } = await attackersLink();
    const { location } = await callback(q, attacker);
    expect(tokenIn(location!, "access_token")).toBeTruthy();
  });
});

describe("pending VK link by phone", () => {
  it("a stranger's first VK sign-in with a claimed phone gets its own account: the claimer's stays as it was", async () => {
    const claimer = await createUser(t.ctx.db, { telegram_id: "55501", pending_vk_link_phone: "79995550101" });
    vk.user = { user_id: "888001", first_name: "Тест", phone: "+79995550101" };
    const { location } = await signInWithVk();
    const access = tokenIn(location!, "access_token")!;
    const { user } = await (await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } }))
      .json();
    expect(user.id).not.toBe(claimer.id);
    expect(user.vk_id).toBe("888001");
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, claimer.id));
    expect(row.vk_id).toBeNull();
    expect(await t.ctx.db.select().from(users).where(eq(users.vk_id, "888001"))).toHaveLength(1);
  });

  it("links VK to the account whose signed-in session started the VK sign-in (the profile's link path)", async () => {
    const owner = await createUser(t.ctx.db, { telegram_id: "55502", pending_vk_link_phone: "79995550102" });
    vk.user = { user_id: "888002", first_name: "Тест", phone: "8 (999) 555-01-02" };
    const { location } = await linkFromProfile(owner);
    expect(location!.searchParams.get("vk_linked")).toBe("1");
    expect(location!.searchParams.get("login_code")).toBeNull();
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, owner.id));
    expect(row.vk_id).toBe("888002");
    expect(row.pending_vk_link_phone).toBeNull();
    expect(await t.ctx.db.select().from(users).where(eq(users.vk_id, "888002"))).toHaveLength(1);
  });

  it("from the profile, links nothing when VK's phone is not the recorded one or the VK account has its own", async () => {
    const owner = await createUser(t.ctx.db, { telegram_id: "55505", pending_vk_link_phone: "79995550105" });
    vk.user = { user_id: "888005", phone: "79995550199" };
    const mismatch = await linkFromProfile(owner);
    expect(mismatch.location!.searchParams.get("error")).toBe(VK_LINK_PHONE_MISMATCH);
    const other = await createUser(t.ctx.db, { vk_id: "888006" });
    vk.user = { user_id: "888006", phone: "79995550105" };
    const taken = await linkFromProfile(owner);
    expect(taken.location!.searchParams.get("error")).toBe(VK_LINK_TAKEN);
    expect(taken.location!.searchParams.get("login_code")).toBeNull();
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, owner.id));
    expect(row.vk_id).toBeNull();
    expect((await t.ctx.db.select().from(users).where(eq(users.id, other.id)))[0].vk_id).toBe("888006");
  });

  it("never folds an existing VK account into the claiming one: its owner lands in their own account", async () => {
    const own = await createUser(t.ctx.db, { vk_id: "888003" });
    const claimant = await createUser(t.ctx.db, { telegram_id: "55503", pending_vk_link_phone: "79995550103" });
    vk.user = { user_id: "888003", phone: "79995550103" };
    const { location } = await signInWithVk();
    const access = tokenIn(location!, "access_token")!;
    const { user } = await (await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } }))
      .json();
    expect(user.id).toBe(own.id);
    expect((await t.ctx.db.select().from(users).where(eq(users.id, own.id)))[0].vk_id).toBe("888003");
    const [claimRow] = await t.ctx.db.select().from(users).where(eq(users.id, claimant.id));
    expect(claimRow.vk_id).toBeNull();
    // The claim can never be met (that phone's VK account has its own account here): it is dropped.
    expect(claimRow.pending_vk_link_phone).toBeNull();
  });

  it("a VK user with tracks signs in to their own account; both accounts stay as they were", async () => {
    const busy = await createUser(t.ctx.db, { vk_id: "888004" });
    await createTrack(t.ctx.db, { user_id: busy.id });
    const tgUser = await createUser(t.ctx.db, { telegram_id: "55504", pending_vk_link_phone: "79995550104" });
    vk.user = { user_id: "888004", phone: "79995550104" };
    const { location } = await signInWithVk();
    expect(location!.searchParams.get("error")).toBeNull();
    const access = tokenIn(location!, "access_token")!;
    const { user } = await (await t.app.request("/api/auth/me", { headers: { Authorization: `Bearer ${access}` } }))
      .json();
    expect(user.id).toBe(busy.id);
    const [busyRow] = await t.ctx.db.select().from(users).where(eq(users.id, busy.id));
    expect(busyRow.vk_id).toBe("888004");
    const [tgRow] = await t.ctx.db.select().from(users).where(eq(users.id, tgUser.id));
    expect(tgRow.vk_id).toBeNull();
    expect(tgRow.pending_vk_link_phone).toBeNull();
  });
});

describe("login code (decision 0202)", () => {
  it("is exchanged once, only by the browser that started the sign-in, within its minute", async () => {
    const first = await signInWithVk();
    const code = first.location!.searchParams.get("login_code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ success: false, error: LOGIN_CODE_INVALID });

    // Another browser holding the address (read from a proxy's log) gets nothing, and spends the code.
    const res = await browser.request(`/api/auth/oauth/vk/callback?${new URLSearchParams(await freshCallbackQuery())}`);
    const fresh = new URL(res.headers.get("location")!).searchParams.get("login_code")!;
    const thief = createSignInBrowser(t.app);
    expect((await exchange(fresh, thief)).status).toBe(401);
    expect((await exchange(fresh)).status).toBe(401);

    // Expired.
    const res2 = await browser.request(
      `/api/auth/oauth/vk/callback?${new URLSearchParams(await freshCallbackQuery())}`,
    );
    const late = new URL(res2.headers.get("location")!).searchParams.get("login_code")!;
    await t.ctx.db.update(loginCodes).set({ expires_at: new Date(Date.now() - 1) });
    expect((await exchange(late)).status).toBe(401);
  });

  it("answers 400 for a missing or malformed body", async () => {
    for (const body of ["", "{}", '{"login_code":""}', '{"login_code":5}', "not json"]) {
      const res = await browser.request("/api/auth/oauth/login-code", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(400);
      const answer = await res.json();
      expect(answer.success, body).toBe(false);
      expect(typeof answer.error).toBe("string");
    }
  });
});

describe("sign-in rate limit", () => {
  it("answers 429 with a clear message past the per-minute limit", async () => {
    let now = Date.UTC(2025, 0, 1);
    const limited = await createTestApp({
      env: { PUBLIC_URL, VK_CLIENT_ID: vk.clientId, VK_ID_BASE_URL: vk.url, AUTH_RATE_LIMIT_PER_MIN: "3" },
      clock: { now: () => new Date(now) },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.app.request("/api/auth/oauth/urls")).status).toBe(200);
      const res = await limited.app.request("/api/auth/oauth/urls");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await res.json()).error).toBe("Слишком много попыток входа. Подождите минуту и попробуйте снова.");
      const tg = await limited.app.request("/api/auth/oauth/telegram/complete", { method: "POST" });
      expect(tg.status).toBe(429);
      const cb = await limited.app.request("/api/auth/oauth/vk/callback?code=a&state=b&device_id=c");
      expect(new URL(cb.headers.get("location")!).searchParams.get("error")).toContain("Слишком много попыток");
      now += 61_000;
      expect((await limited.app.request("/api/auth/oauth/urls")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("counts per connection address and ignores X-Forwarded-For unless proxies are trusted", async () => {
    const direct = await createTestApp({ env: { PUBLIC_URL, AUTH_RATE_LIMIT_PER_MIN: "2" } });
    const from = async (app: typeof direct.app, peer: string, xff?: string) => {
      const res = await app.request(
        "/api/auth/oauth/urls",
        { headers: xff ? { "X-Forwarded-For": xff } : {} },
        { remoteAddr: { hostname: peer, port: 1, transport: "tcp" } },
      );
      return res.status;
    };
    try {
      // A forged header does not buy a new bucket.
      expect(await from(direct.app, "10.0.0.1", "1.1.1.1")).toBe(200);
      expect(await from(direct.app, "10.0.0.1", "2.2.2.2")).toBe(200);
      expect(await from(direct.app, "10.0.0.1", "3.3.3.3")).toBe(429);
      // Another connection address has its own.
      expect(await from(direct.app, "10.0.0.2")).toBe(200);
    } finally {
      await direct.close();
    }

    const proxied = await createTestApp({ env: { PUBLIC_URL, AUTH_RATE_LIMIT_PER_MIN: "2", TRUSTED_PROXY_HOPS: "1" } });
    try {
      // Everyone arrives from the proxy's address; the proxy appends the client's.
      expect(await from(proxied.app, "10.0.0.9", "1.1.1.1")).toBe(200);
      expect(await from(proxied.app, "10.0.0.9", "1.1.1.1")).toBe(200);
      expect(await from(proxied.app, "10.0.0.9", "1.1.1.1")).toBe(429);
      // An entry the client put in front of the proxy's is not believed.
      expect(await from(proxied.app, "10.0.0.9", "7.7.7.7, 1.1.1.1")).toBe(429);
      // Another visitor behind the same proxy is not held back by the first.
      expect(await from(proxied.app, "10.0.0.9", "2.2.2.2")).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
