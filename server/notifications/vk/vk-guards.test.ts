/**
 * Issue 36: the VK messages' calls are rate limited like the sign-ins, nothing secret reaches the
 * log, and every artist message (the release and episode desks' texts too) rides the VK channel.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { telegramOutbox } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser } from "../../testing/factories.ts";
import { startVkApiDouble, type VkApiDouble } from "../../testing/vk-api-double.ts";
import { createNotifications } from "../notifications.ts";

let vkApi: VkApiDouble;
let t: TestApp;
let nowMs = Date.UTC(2026, 10, 1, 12);
const clock = { now: () => new Date(nowMs) };

beforeAll(async () => {
  vkApi = await startVkApiDouble();
  t = await createTestApp({ env: { ...vkApi.env, AUTH_RATE_LIMIT_PER_MIN: "1000", LOG_LEVEL: "debug" }, clock });
});
afterAll(async () => {
  await t.close();
  await vkApi.stop();
});
afterEach(() => vi.restoreAllMocks());

async function consent(userId: number, app = t) {
  const { access_token } = await app.ctx.tokens.issue(userId);
  return await app.app.request("/api/profile/vk-messages", { headers: { Authorization: `Bearer ${access_token}` } });
}

describe("VK messages", () => {
  it("carry an artist text (the release and episode desks') to an artist who has only VK, and log no secret", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
    const artist = await createUser(t.ctx.db, { telegram_id: null });
    const key = (await (await consent(artist.id)).json()).key as string;
    const vkUser = "500600700";
    await vkApi.allow(t.app, vkUser, key);
    await vkApi.post(t.app, { type: "confirmation", group_id: vkApi.groupId, secret: "wrong" });
    const n = createNotifications(t.ctx, { random: () => 0.5 });
    expect(
      await n.outbox.enqueueArtistText({ key: "release:9:reminder:1", userId: artist.id, text: "Пришлите мастер" }),
    )
      .toBe(true);
    await n.sender.runOnce();
    expect(vkApi.delivered.map((d) => [d.peer_id, d.message])).toEqual([[vkUser, "Пришлите мастер"]]);
    // The consent withdrawn where the site did not hear: 901 is logged, without the token.
    vkApi.setAllowed(vkUser, false);
    nowMs += 2_000;
    await n.outbox.enqueueArtistText({ key: "release:9:reminder:2", userId: artist.id, text: "Напоминаем" });
    await n.sender.runOnce();
    const [, second] = await t.ctx.db.select().from(telegramOutbox).orderBy(telegramOutbox.id);
    expect(second.status).toBe("blocked");
    await n.sender.stop();
    expect(lines.some((l) => l.includes("vk callback refused"))).toBe(true);
    expect(lines.some((l) => l.includes("vk: consent lost"))).toBe(true);
    for (const secret of [vkApi.token, vkApi.secret, vkApi.confirmation, key]) {
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    }
  });

  it("limit the consent and callback calls per address as the sign-ins (AUTH_RATE_LIMIT_PER_MIN)", async () => {
    const limited = await createTestApp({ env: { ...vkApi.env, AUTH_RATE_LIMIT_PER_MIN: "2" } });
    try {
      const artist = await createUser(limited.ctx.db, { telegram_id: null });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await consent(artist.id, limited)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const callbacks: number[] = [];
      for (let i = 0; i < 3; i++) {
        const event = { type: "x", group_id: vkApi.groupId, secret: vkApi.secret };
        callbacks.push((await vkApi.post(limited.app, event)).status);
      }
      // Counted apart from the profile's calls (decision 0395).
      expect(callbacks).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
