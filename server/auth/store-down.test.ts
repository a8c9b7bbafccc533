import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatusStore } from "../lib/kv.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createSignInBrowser } from "../testing/sign-in-browser.ts";
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../testing/telegram.ts";
import { startVkDouble, type VkDouble } from "../testing/vk-double.ts";

/**
 * Sign-in keeps working while the status store (Upstash) cannot be reached: the VK state, the
 * browser binding and the Telegram replay record live in the database (issue 10 item 7,
 * docs/decisions/0016). Every store call here fails as an unreachable Upstash does.
 */
const unreachable = () => Promise.reject(new TypeError("fetch failed: connection refused"));
const downStore: StatusStore = {
  kind: "upstash",
  get: unreachable,
  mget: unreachable,
  set: unreachable,
  take: unreachable,
  del: unreachable,
  incr: unreachable,
  keys: unreachable,
  ttl: unreachable,
  ping: () => Promise.resolve(false),
};

const PUBLIC_URL = "http://app.test";
let vk: VkDouble;
let t: TestApp;

beforeAll(async () => {
  vk = await startVkDouble({ user: { user_id: "7070001", first_name: "Без", last_name: "Хранилища" } });
  t = await createTestApp({
    env: {
      PUBLIC_URL,
      VK_CLIENT_ID: vk.clientId,
      VK_ID_BASE_URL: vk.url,
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      AUTH_RATE_LIMIT_PER_MIN: "1000",
    },
    kv: downStore,
  });
});
afterAll(async () => {
  await t.close();
  await vk.stop();
});

describe("sign-in with the status store down", () => {
  it("gives the sign-in addresses", async () => {
    const res = await t.app.request("/api/auth/oauth/urls");
    expect(res.status).toBe(200);
    const urls = await res.json();
    expect(urls.vk).toContain("/authorize?");
    expect(urls.telegram).toContain("/auth?");
  });

  it("signs in with VK", async () => {
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
    expect(back.searchParams.get("error")).toBeNull();
    const code = back.searchParams.get("login_code");
    expect(code).toBeTruthy();
    const exchanged = await browser.request("/api/auth/oauth/login-code", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login_code: code }),
    });
    expect(exchanged.status).toBe(200);
    expect((await exchanged.json()).access_token).toBeTruthy();
  });

  it("signs in with Telegram once per result", async () => {
    const result = encodeTgAuthResult(await signTelegramAuth({ id: 7070002, first_name: "Телеграм" }));
    const browser = createSignInBrowser(t.app);
    const first = await browser.completeTelegram(result);
    expect(first.status).toBe(200);
    expect((await first.json()).user.telegram_id).toBe("7070002");
    expect((await browser.completeTelegram(result)).status).toBe(401);
  });
});
