/**
 * Issue 31, the desk's layout (docs/decisions/0270, 0271). On a server of its own wired to the
 * Telegram Bot API double, 200 processed tracks (one real upload copied by SQL, queue-kit.ts), some
 * with long names; the seeded moderator works «Новые» at 1440×900:
 * - while a track plays and with the template chooser open, at least 8 rows are visible between
 *   the site header and the dock (and its open panel), each row one line high, a long name cut with
 *   «…» and whole on hover (title) and in the row's text;
 * - the chooser shows a ready-made message with `{artist}`, `{title}` and `{direction}` filled, and
 *   that text is the message the Bot API double receives, byte for byte; the decided row stays in
 *   view, marked, at once;
 * - the same at 1280×800 and 1920×1080, with screenshots of the desk playing and of the chooser.
 * On a phone (390×844, touch): the bar is at most 200 px with play, ±5 s, the drop, previous/next
 * and the three outcomes; while deciding (the sheet open) at least one card is whole above the
 * sheet, and the sheet shows every template's whole text. Screenshots of the bar and the sheet.
 */
import { startTelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { copyTracks, waitAnalysed } from "./queue-kit.ts";
import {
  apiAs,
  artistWithTelegram,
  runArtist,
  signIn,
  tokensOf,
  uploadAs,
  waitBotMessage,
  waitCompleted,
  WIDE,
} from "./staff-kit.ts";

const QUEUE = 200;
const SCREENSHOTS = new URL("../test-artifacts/screenshots/", import.meta.url);

/** What a person sees: the window, not the whole page (the bar is fixed to the window's bottom). */
async function shot(t: TestContext, page: Page, name: string) {
  await t.screenshot(page, name);
  await page.screenshot({ path: new URL(`${name}-window.png`, SCREENSHOTS).pathname });
}
/**
 * The phone's hold line is measured while the hold lasts: ten minutes, which no load uses up (a
 * few seconds once ran out first). The 1440 test reads the message, so its server has no hold.
 */
const HOLD_S = 600;
/** The template of this test: every placeholder, a line break, and nothing HTML would escape. */
const TEMPLATE =
  "{artist}, спасибо за «{title}».\nДля направления «{direction}» трек не подошёл — ждём следующие работы!";

/** Rows of the table wholly visible between the site header and the dock (with its open panel). */
function visibleRows(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector(".site-header")!.getBoundingClientRect().bottom;
    const covers = [".st-player", ".dk-sheet[data-open]"]
      .map((s) => document.querySelector(s)?.getBoundingClientRect())
      .filter((r): r is DOMRect => Boolean(r && r.height > 0));
    const floor = Math.min(innerHeight, ...covers.map((r) => r.top));
    const rows = [...document.querySelectorAll<HTMLElement>("tbody tr[data-track-id]")];
    const inView = rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= header - 0.5 && b.bottom <= floor + 0.5;
    });
    return {
      count: inView.length,
      ids: inView.map((r) => Number(r.dataset.trackId)),
      heights: inView.map((r) => Math.round(r.getBoundingClientRect().height)),
      floor: Math.round(floor),
      header: Math.round(header),
    };
  });
}

/** Every row's name on one line: its box is one line high. */
function nameLines(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("tbody tr[data-track-id] .st-track-name")].map((n) => {
      const lh = parseFloat(getComputedStyle(n).lineHeight) || parseFloat(getComputedStyle(n).fontSize) * 1.5;
      return Math.round(n.getBoundingClientRect().height / lh);
    })
  );
}

/**
 * A server of the test's own wired to the Bot API double with a hold of `holdS`, an artist with a
 * Telegram id, and one processed upload of theirs with its audio report (the source of the copies).
 */
async function deskServer(t: TestContext, prefix: string, holdS: number) {
  const bot = await startTelegramBotDouble({ token: "123456:TEST" });
  const server = await t.startServer({
    TELEGRAM_BOT_TOKEN: "123456:TEST",
    TELEGRAM_BOT_API_URL: bot.url,
    DECISION_NOTIFY_HOLD_S: String(holdS),
  });
  const s: TestContext = { ...t, server };
  const admin = await tokensOf(s, "admin");
  const artist = await artistWithTelegram(s, prefix);
  const name = runArtist(prefix);
  const [source] = await uploadAs(s, artist.access, [
    { name: `${name} - Source.mp3`, source: "Test Artist - Amen Study.mp3" },
  ], "label_koster");
  await waitCompleted(s, admin.access, [source.id]);
  await waitAnalysed(s, admin.access, [source.id]);
  return { bot, s, server, admin, name, source };
}

async function waitPlayingTrack(page: Page, id: number) {
  await page.waitForFunction(
    (id) => {
      const a = document.querySelector("audio");
      const row = document.querySelector("[data-track-id][aria-current='true']");
      return a && !a.paused && a.currentTime > 0 && row?.getAttribute("data-track-id") === String(id);
    },
    id,
    { timeout: 15_000 },
  );
}

/**
 * The dock as it stays: its parts that load after the track starts (the votes) are shown, and the
 * browser has rendered a frame since, in which the player's ResizeObserver kept the row in view
 * again (use-row-in-view.ts). Measured earlier, the rows counted were those of a smaller dock
 * (decision 0465).
 */
async function dockSettled(page: Page) {
  await page.getByTestId("decision-dock").getByTestId("track-votes").waitFor();
  await framePassed(page);
}

/** A whole frame rendered since now: the ResizeObserver callbacks of the last change have run. */
const framePassed = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

test(
  "desk layout: 8+ one-line rows in view at 1440×900 while playing and choosing; the chooser's text is the message the artist gets",
  async (t) => {
    const { bot, s, server, admin, name, source } = await deskServer(t, "Layout", 0);
    try {
      const long = " (Extended Liquid Rework with Strings and a Very Long Name, Remastered 2026)";
      const names = Array.from(
        { length: QUEUE },
        (_, i) => `${name} - Desk ${String(i + 1).padStart(3, "0")}${i % 3 === 0 ? long : ""}.mp3`,
      );
      const ids = await copyTracks(server.dataDir, source.id, names);
      const created = await apiAs(s, admin.access, "/admin/decline-templates", {
        method: "POST",
        body: JSON.stringify({ title: "Полный текст", text: TEMPLATE, outcome: "declined" }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const list = (await apiAs(s, admin.access, "/admin/decline-templates?outcome=declined")).body
        .templates as { id: number }[];
      // Its key in the chooser: 1–9 by the list's order.
      const digit = String(list.findIndex((x) => x.id === created.body.template.id) + 1);
      expect(Number(digit)).toBeGreaterThanOrEqual(1);
      expect(Number(digit)).toBeLessThanOrEqual(9);

      const page = await signIn(s, "moderator", WIDE);
      await page.goto(`${server.baseUrl}/moderator/tracks?review=new&sort=upload_date`);
      // A page of the moderator's list holds 10 rows (MODERATOR_PAGE_SIZE).
      await page.locator("tbody tr[data-track-id]").nth(9).waitFor();
      expect(await page.locator("tbody tr[data-track-id]").first().getAttribute("data-track-id")).toBe(
        String(ids[0]),
      );

      // A track plays: the first row and the rows after it are in view above the dock, one line each.
      await page.keyboard.press("j");
      await waitPlayingTrack(page, ids[0]);
      await dockSettled(page);
      const playing = await visibleRows(page);
      console.log(
        `      1440×900 playing: ${playing.count} rows in view (${playing.header}–${playing.floor} px), heights ${
          [...new Set(playing.heights)].join("/")
        } px`,
      );
      expect(playing.count).toBeGreaterThanOrEqual(8);
      expect(playing.ids).toContain(ids[0]);
      expect(Math.max(...playing.heights)).toBeLessThanOrEqual(48);
      expect(new Set(await nameLines(page))).toEqual(new Set([1]));
      // A long name is cut on screen, whole on hover and in the text a screen reader reads.
      const longName = page.locator(`tr[data-track-id="${ids[0]}"] .st-track-name`);
      expect(await longName.getAttribute("title")).toBe(names[0]);
      expect(await longName.textContent()).toBe(names[0]);
      expect(await longName.evaluate((n) => n.scrollWidth > n.clientWidth)).toBe(true);
      await shot(t, page, "desk-layout-playing-1440");

      // The chooser: still 8+ rows; the template reads as the artist will get it.
      await page.keyboard.press("x");
      const chooser = page.locator("[data-desk-chooser]");
      await chooser.waitFor();
      await framePassed(page);
      const choosing = await visibleRows(page);
      console.log(
        `      1440×900 chooser open: ${choosing.count} rows in view (${choosing.header}–${choosing.floor} px)`,
      );
      expect(choosing.count).toBeGreaterThanOrEqual(8);
      const shown = await chooser.locator("li").nth(Number(digit) - 1).locator("[data-template-text]").evaluate((n) =>
        n.textContent
      );
      expect(shown).toContain(`${name}, спасибо за «Desk 001${long}».`);
      expect(shown).toContain("«Лейбл Костёр»");
      expect(shown).not.toContain("Звукозапись");
      // The whole text, not cut: the element shows all its lines.
      expect(
        await chooser.locator("li").nth(Number(digit) - 1).locator("[data-template-text]").evaluate((n) =>
          n.scrollHeight <= n.clientHeight + 1 && n.scrollWidth <= n.clientWidth + 1
        ),
      ).toBe(true);
      await shot(t, page, "desk-layout-chooser-1440");

      // Sent: the decided row stays in view with its new state at once, the next track plays.
      await page.keyboard.press(digit);
      const decided = page.locator(`tr[data-track-id="${ids[0]}"][data-left]`);
      await decided.waitFor();
      await waitPlayingTrack(page, ids[1]);
      await dockSettled(page);
      const after = await visibleRows(page);
      expect(after.ids).toContain(ids[0]);
      expect(after.ids).toContain(ids[1]);
      expect(after.count).toBeGreaterThanOrEqual(8);

      // The Bot API double: the message part is the chooser's text, byte for byte.
      const title = names[0].replace(/\.mp3$/, "");
      const told = await waitBotMessage(bot, (x) => x.includes(title));
      const part = told.slice(told.indexOf("Сообщение:\n") + "Сообщение:\n".length, told.indexOf("\n\nИстория"));
      expect(new TextEncoder().encode(part)).toEqual(new TextEncoder().encode(shown!));

      // The other widths: rows in view while playing and choosing, and their screenshots.
      for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }, WIDE]) {
        await page.setViewportSize(size);
        await page.keyboard.press("j");
        await page.waitForFunction(() => {
          const a = document.querySelector("audio");
          return a && !a.paused && a.currentTime > 0;
        });
        await dockSettled(page);
        const p = await visibleRows(page);
        expect(new Set(await nameLines(page))).toEqual(new Set([1]));
        await page.keyboard.press("x");
        await chooser.waitFor();
        await framePassed(page);
        const c = await visibleRows(page);
        console.log(`      ${size.width}×${size.height}: ${p.count} rows in view playing, ${c.count} with the chooser`);
        // The figure is for 1440×900; a wider and taller window shows at least as many, a
        // 1280×800 one is only measured (the figures are in the decision record).
        if (size.width >= 1440) {
          expect(p.count).toBeGreaterThanOrEqual(8);
          expect(c.count).toBeGreaterThanOrEqual(8);
        }
        if (size !== WIDE) {
          await shot(t, page, `desk-layout-chooser-${size.width}`);
          await page.keyboard.press("Escape");
          await chooser.waitFor({ state: "detached" });
          await shot(t, page, `desk-layout-playing-${size.width}`);
        } else await page.keyboard.press("Escape");
      }
    } finally {
      await bot.stop();
    }
  },
  { timeout: 180_000 },
);

test("desk layout: the phone's bar is at most 200 px with previous/next, and a card stays whole above the sheet while deciding", async (t) => {
  const { bot, s, server, name, source } = await deskServer(t, "Pocket", HOLD_S);
  const names = Array.from({ length: 8 }, (_, i) => `${name} - Pocket ${i + 1}.mp3`);
  const ids = await copyTracks(server.dataDir, source.id, names);

  const context = await t.browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    locale: "ru-RU",
  });
  try {
    const page = await context.newPage();
    const { link } = await tokensOf(s, "moderator");
    const me = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/me" && r.ok());
    await page.goto(link);
    await me;
    await page.waitForFunction(() => Boolean(localStorage.getItem("accessToken")));
    await page.evaluate(() => localStorage.setItem("cookieConsent", "true"));
    await page.goto(
      `${server.baseUrl}/moderator/tracks?review=new&sort=upload_date&filename=${encodeURIComponent(name)}`,
    );
    const first = page.locator(`li[data-track-id="${ids[0]}"]`);
    await first.waitFor();
    await first.locator("[data-review-play]").tap();
    await waitPlayingTrack(page, ids[0]);

    const bar = page.locator(".st-player");
    const box = (await bar.boundingBox())!;
    console.log(`      390×844: the bar is ${Math.round(box.height)} px high`);
    expect(box.height).toBeLessThanOrEqual(200);
    expect(Math.round(box.y + box.height)).toBeLessThanOrEqual(844);
    // Play, ±5 s, the drop, previous/next and the three outcomes: in the bar, visible, in one screen.
    for (
      const sel of [
        "[aria-keyshortcuts='Space']",
        "[aria-keyshortcuts='ArrowLeft']",
        "[aria-keyshortcuts='ArrowRight']",
        "[aria-keyshortcuts='D']",
        "[aria-keyshortcuts='K']",
        "[aria-keyshortcuts='J']",
        ".dk-outcome.dk-accepted",
        ".dk-outcome.dk-shortlisted",
        ".dk-outcome.dk-declined",
      ]
    ) {
      const b = (await bar.locator(sel).first().boundingBox())!;
      expect(b, sel).not.toBeNull();
      expect(b.y, sel).toBeGreaterThanOrEqual(box.y - 0.5);
      expect(b.y + b.height, sel).toBeLessThanOrEqual(box.y + box.height + 0.5);
      expect(b.height, sel).toBeGreaterThanOrEqual(40);
    }
    await shot(t, page, "desk-layout-phone-bar-390");

    // Previous/next work by taps.
    await bar.locator("[aria-keyshortcuts='J']").tap();
    await waitPlayingTrack(page, ids[1]);
    await bar.locator("[aria-keyshortcuts='K']").tap();
    await waitPlayingTrack(page, ids[0]);

    /** Cards wholly visible between the header and `floor`. */
    const wholeCards = (floorSel: string) =>
      page.evaluate((floorSel) => {
        const header = document.querySelector(".site-header")!.getBoundingClientRect().bottom;
        const floor = document.querySelector(floorSel)?.getBoundingClientRect().top ?? innerHeight;
        return [...document.querySelectorAll("li[data-track-id]")].filter((c) => {
          const b = c.getBoundingClientRect();
          return b.top >= header - 0.5 && b.bottom <= floor + 0.5;
        }).length;
      }, floorSel);
    expect(await wholeCards(".st-player")).toBeGreaterThanOrEqual(1);

    // Deciding: «decline» opens the sheet with the templates' whole texts; a card stays whole above it.
    await bar.locator(".dk-outcome.dk-declined").tap();
    const sheet = page.locator(".dk-sheet[data-open]");
    await sheet.locator("[data-desk-chooser]").waitFor();
    const cards = await wholeCards(".dk-sheet[data-open]");
    console.log(`      390×844 deciding: ${cards} whole card(s) above the sheet`);
    expect(cards).toBeGreaterThanOrEqual(1);
    const texts = sheet.locator("[data-template-text]");
    expect(await texts.count()).toBeGreaterThan(0);
    for (const uncut of await texts.evaluateAll((ns) => ns.map((n) => n.scrollHeight <= n.clientHeight + 1))) {
      expect(uncut).toBe(true);
    }
    // Filled as the artist gets them: no placeholder left.
    for (const text of await texts.allTextContents()) expect(text).not.toMatch(/\{(artist|title|direction)\}/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
      .toBeLessThanOrEqual(0);
    await shot(t, page, "desk-layout-phone-sheet-390");

    // The tap on a template sends it: the card is marked decided, the next track plays.
    await sheet.locator(".dk-template").first().tap();
    await page.locator(`li[data-track-id="${ids[0]}"].st-card-left`).waitFor();
    await waitPlayingTrack(page, ids[1]);
    // The hold's line with its undo (the artist has Telegram) still fits in 200 px, on one line.
    const hold = bar.getByTestId("decision-hold");
    await hold.waitFor();
    const held = (await bar.boundingBox())!;
    console.log(`      390×844: the bar is ${Math.round(held.height)} px high with the hold's line and its undo`);
    expect(held.height).toBeLessThanOrEqual(200);
    expect((await bar.locator(".dk-status").boundingBox())!.height).toBeLessThanOrEqual(30);
    const undo = (await hold.getByRole("button").boundingBox())!;
    expect(undo.x + undo.width).toBeLessThanOrEqual(390);
    expect(undo.height).toBeGreaterThanOrEqual(24);
    await shot(t, page, "desk-layout-phone-hold-390");
  } finally {
    await context.close();
    await bot.stop();
  }
});
