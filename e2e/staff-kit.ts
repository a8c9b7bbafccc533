/**
 * Pieces the end-to-end tests share: users of their own, signing in by login link, calling the API as
 * a user, uploading unique copies of the fixtures, and waiting for their processing.
 */
import type { Download } from "playwright-core";
import { startTelegramBotDouble, type TelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { labelDay } from "../domain/release-desk.ts";
import { expect, type ExtraServer, type Page, type TestContext } from "./harness.ts";

export const FIXTURES = new URL("../test/fixtures/audio/", import.meta.url);
export const WIDE = { width: 1440, height: 900 };

/** An artist name for this run: letters only, since artist names must not carry an ID. */
export function runArtist(prefix: string): string {
  return prefix +
    Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => String.fromCharCode(97 + (b % 26))).join("");
}

export interface Uploaded {
  id: number;
  filename: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export async function tokensOf(t: TestContext, username: string) {
  const link = new URL(await t.server.loginLink(username));
  return { link: link.href, access: link.searchParams.get("access_token")! };
}

export async function apiAs(t: TestContext, token: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${t.server.baseUrl}/api${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body && !(init.body instanceof FormData) ? { "Content-Type": "application/json" } : {}),
    },
  });
  const body = await res.json();
  return { status: res.status, body };
}

/**
 * A user of this test alone, made through the admin API and signed in by login link: a test that
 * bans, edits or fills a profile works on its own user, never on the seeded ones the others share.
 */
export async function newUser(t: TestContext, prefix: string, fields: { telegram_id?: string } = {}) {
  const admin = await tokensOf(t, "admin");
  const username = runArtist(prefix.toLowerCase());
  const made = await apiAs(t, admin.access, "/admin/users", {
    method: "POST",
    body: JSON.stringify({ username, ...fields }),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.user.id as number, username, ...(await tokensOf(t, username)) };
}

/** A user of this test with a Telegram id of its own (an artist the Bot API double hears about). */
export async function artistWithTelegram(t: TestContext, prefix: string) {
  const telegramId = String(700_000_000 + Math.floor(Math.random() * 100_000_000));
  return { ...(await newUser(t, prefix, { telegram_id: telegramId })), telegramId };
}

/**
 * Accepts track `id` for `direction` on the desk through the staff API (its first decision:
 * revision 0), with `message` to the artist; the tests whose subject is the desk's own screens
 * accept there instead.
 */
export async function acceptOnDesk(
  t: TestContext,
  staffToken: string,
  id: number,
  direction: string,
  message = "Берём!",
) {
  const accepted = await apiAs(t, staffToken, `/admin/tracks/${id}/decisions/${direction}`, {
    method: "PUT",
    body: JSON.stringify({ status: "accepted", message, revision: 0 }),
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return accepted.body;
}

/** What `withBotServer` gives the test: the double, its own server, the context on it, the admin's tokens. */
export interface BotServer {
  bot: TelegramBotDouble;
  server: ExtraServer;
  s: TestContext;
  admin: Awaited<ReturnType<typeof tokensOf>>;
}

/**
 * Runs `use` on a server of the test's own wired to a Telegram Bot API double, decisions sent at
 * once (DECISION_NOTIFY_HOLD_S 0: the hold is server/review/track-decision.test.ts's), with `env`
 * on top; the double is stopped after, whatever happened.
 */
export async function withBotServer(
  t: TestContext,
  env: Record<string, string>,
  use: (w: BotServer) => Promise<void>,
): Promise<void> {
  const token = "123456:TEST";
  const bot = await startTelegramBotDouble({ token });
  try {
    const server = await t.startServer({
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: "0",
      ...env,
    });
    const s: TestContext = { ...t, server };
    await use({ bot, server, s, admin: await tokensOf(s, "admin") });
  } finally {
    await bot.stop();
  }
}

/**
 * The first message delivered to an artist whose text passes `match`, once the Bot API double has
 * answered it (the sender works after the decision's answer): waits on the double, not on time.
 */
export async function waitBotMessage(
  bot: Pick<TelegramBotDouble, "whenDelivered">,
  match: (text: string) => boolean,
): Promise<string> {
  const [found] = await bot.whenDelivered((c) => match(String(c.body.text ?? "")), 1);
  return String(found.body.text);
}

/**
 * The downloads `page` and the tabs it opens start: `all` of them, and `first`, resolved by the
 * first one's event (a test waits on it, never on a polling loop).
 */
export function watchDownloads(page: Page): { all: Download[]; first: Promise<Download> } {
  const all: Download[] = [];
  let started!: (d: Download) => void;
  const first = new Promise<Download>((resolve) => (started = resolve));
  const seen = (d: Download) => {
    all.push(d);
    started(d);
  };
  page.context().on("page", (p) => p.on("download", seen));
  page.on("download", seen);
  return { all, first };
}

/** An ID3v1 tag with a random comment makes each upload unique, so the duplicate check lets it through. */
export function uniqueMp3(bytes: Uint8Array, tag: string): Uint8Array<ArrayBuffer> {
  const id3 = new Uint8Array(128);
  id3.set(new TextEncoder().encode("TAG"), 0);
  // The comment field holds 28 bytes: cut the encoded text (a Cyrillic tag takes two bytes a letter).
  id3.set(new TextEncoder().encode(`e2e ${crypto.randomUUID().slice(0, 8)} ${tag}`).subarray(0, 28), 97);
  const out = new Uint8Array(bytes.length + 128);
  out.set(bytes);
  out.set(id3, bytes.length);
  return out;
}

/** Uploads unique copies of fixtures as one request through the real upload API. */
export async function uploadAs(
  t: TestContext,
  token: string,
  files: { name: string; source: string }[],
  directions: string,
): Promise<Uploaded[]> {
  const form = new FormData();
  const copies = await Promise.all(
    files.map(async (f) => uniqueMp3(await Deno.readFile(new URL(f.source, FIXTURES)), f.name)),
  );
  files.forEach((f, i) => form.append("files", new File([copies[i]], f.name, { type: "audio/mpeg" })));
  form.append("directions", directions);
  const up = await apiAs(t, token, "/upload", { method: "POST", body: form });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  expect(up.body.track_ids).toHaveLength(files.length);
  return up.body.track_ids.map((id: number, i: number) => ({ id, filename: files[i].name, bytes: copies[i] }));
}

/** Waits until the review player plays track `id` (audio running, its row marked as the one playing). */
export async function waitPlaying(page: Page, id: number) {
  try {
    await page.waitForFunction((id) => {
      const a = document.querySelector("audio");
      const row = document.querySelector("tbody tr[aria-current='true']");
      return a && !a.paused && a.currentTime > 0 && row?.getAttribute("data-track-id") === String(id);
    }, id);
  } catch (err) {
    // What the player was doing when it did not play: a failure in CI says why.
    const state = await page.evaluate(() => {
      const a = document.querySelector("audio");
      return {
        row: document.querySelector("tbody tr[aria-current='true']")?.getAttribute("data-track-id") ?? null,
        src: a?.getAttribute("src") ?? null,
        paused: a?.paused,
        currentTime: a?.currentTime,
        readyState: a?.readyState,
        networkState: a?.networkState,
        error: a?.error ? `${a.error.code} ${a.error.message}` : null,
        bar: document.querySelector("[role='region'][aria-label*='layer'], .st-player")?.textContent?.slice(0, 200) ??
          null,
      };
    }).catch(() => null);
    throw new Error(`track ${id} did not play: ${JSON.stringify(state)}`, { cause: err });
  }
}

/**
 * Waits until processing has ended for each track, and checks it completed (a failed check removes
 * the file). The state is read until it changes, with no count of tries: a slow machine once went on
 * with a track still processing (docs/decisions/0448).
 */
export async function waitCompleted(t: TestContext, adminToken: string, ids: number[]) {
  for (const id of ids) {
    for (;;) {
      const { body } = await apiAs(t, adminToken, `/admin/tracks/${id}`);
      if (body.track?.status !== "processing") {
        expect(body.track?.status, `track ${id}`).toBe("completed");
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function signIn(
  t: TestContext,
  username: string,
  viewport = WIDE,
  { acceptCookies = true } = {},
): Promise<Page> {
  const page = await t.page(viewport);
  const { link } = await tokensOf(t, username);
  // Wait until the user is loaded: leaving while the sign-in call runs would drop the tokens.
  const me = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/me" && r.ok());
  await page.goto(link);
  await me;
  await page.waitForURL((u) => !u.searchParams.has("access_token"));
  await page.waitForFunction(() => Boolean(localStorage.getItem("accessToken")));
  // The cookie notice would cover the lower part of every screenshot.
  if (acceptCookies) await page.evaluate(() => localStorage.setItem("cookieConsent", "true"));
  return page;
}

export async function open(page: Page, t: TestContext, path: string, heading: string | RegExp) {
  await page.goto(t.server.baseUrl + path);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

/**
 * On the staff release page (issues 34): takes the suggested catalogue number in one click and sets
 * the release date to today, waiting for each to show; what the desk then shows.
 */
export async function numberAndToday(desk: Page): Promise<{ number: string; today: string }> {
  const take = desk.getByTestId("take-number");
  const number = (await take.textContent())!.replace("Взять ", "");
  expect(number).toMatch(/^NPR\d{3}$/);
  await take.click();
  await desk.locator(".st-badge", { hasText: number }).waitFor();
  const today = labelDay(new Date());
  await desk.locator('input[name="release_date"]').fill(today);
  await desk.getByRole("button", { name: "Сохранить", exact: true }).click();
  await desk.locator(".st-badge", { hasText: today }).waitFor();
  return { number, today };
}
