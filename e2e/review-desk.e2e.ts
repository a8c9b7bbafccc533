/**
 * Issue 23 in Chromium: the review desk. On a server of its own wired to the Telegram Bot API double
 * with a hold (DECISION_NOTIFY_HOLD_S) no load can use up, a queue of 200 processed tracks is made in the test's
 * own set-up (one real upload, copied by SQL with its audio report and older upload dates). The
 * seeded moderator opens the queue from the sidebar («Новые», oldest first) at 1440×900 and decides
 * ten tracks by keyboard alone: declines and accepts with a template (X or A, then a digit),
 * shortlists (S), one decline taken back with Z inside the hold and decided again. The test counts
 * the keys per decision, page loads and route changes (a change of the path; `?track=` written over
 * the current entry is an address update and is counted apart), checks the next undecided track
 * plays after each decision and prints how long after the deciding key it started. After the hold,
 * the double holds exactly one message per accepted or declined pair (a shortlist by S carries no
 * message, and the artist is not told of one), and none for the decision taken back. Nothing reaches
 * the double during the hold; the test then ends the hold itself (outbox-kit.ts `endHolds`,
 * docs/decisions/0446: the hold running out is server/review/track-decision.test.ts's, on a clock
 * of its own) and waits on the double's messages, and on the outbox having nothing more on its way.
 * A second test: the playing track survives the edit page and Back, a reload and a copied address.
 * Screenshots at 1440 of the queue with the dock and of the template chooser.
 */
import { startTelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { copyTracks, waitAnalysed } from "./queue-kit.ts";
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { endHolds, stillOnTheWay } from "./outbox-kit.ts";
import { artistWithTelegram, runArtist, signIn, tokensOf, uploadAs, waitCompleted, WIDE } from "./staff-kit.ts";

/**
 * Ten minutes: a loaded machine cannot use it up before Z (the undo must come within it, and a few
 * seconds were once too few), and the test ends it itself for the messages after it.
 */
const HOLD_S = 600;
const QUEUE = 200;
const SCREENSHOTS = new URL("../test-artifacts/screenshots/", import.meta.url);

/** The rows of the list in their order. */
const rowIds = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("tbody tr[data-track-id]")].map((r) => Number(r.getAttribute("data-track-id")))
  );

/** The track the player holds (its row), and whether its audio runs. */
async function waitPlayingTrack(page: Page, id: number) {
  await page.waitForFunction(
    (id) => {
      const a = document.querySelector("audio");
      const row = document.querySelector("tbody tr[aria-current='true']");
      return a && !a.paused && a.currentTime > 0 && row?.getAttribute("data-track-id") === String(id);
    },
    id,
    { timeout: 15_000 },
  );
}

/**
 * Counts, in the page: when the last key went down, and for each track start (the audio's `playing`
 * after a new address) how long after that key it came. Media events do not bubble: caught on the way down.
 */
async function instrument(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __desk: { keyAt: number; starts: { src: string; ms: number }[] } };
    w.__desk = { keyAt: 0, starts: [] };
    let lastSrc = "";
    document.addEventListener("keydown", () => (w.__desk.keyAt = performance.now()), true);
    document.addEventListener("playing", (e) => {
      const a = e.target as HTMLAudioElement;
      const src = a.getAttribute("src") ?? "";
      if (src === lastSrc) return;
      lastSrc = src;
      w.__desk.starts.push({ src, ms: Math.round(performance.now() - w.__desk.keyAt) });
    }, true);
  });
}

const lastStartMs = (page: Page) =>
  page.evaluate(() => (window as unknown as { __desk: { starts: { ms: number }[] } }).__desk.starts.at(-1)?.ms ?? -1);

test(
  "review desk: a moderator decides ten tracks of a 200-track queue by keyboard, with no page change; Z takes one back inside the hold; one message per decided pair after it",
  async (t) => {
    const bot = await startTelegramBotDouble({ token: "123456:TEST" });
    try {
      const server = await t.startServer({
        TELEGRAM_BOT_TOKEN: "123456:TEST",
        TELEGRAM_BOT_API_URL: bot.url,
        DECISION_NOTIFY_HOLD_S: String(HOLD_S),
        // The release sweep's passes: a request is written within a second of the hold's end.
        INTAKE_SWEEP_INTERVAL_S: "1",
      });
      const s: TestContext = { ...t, server };

      // --- The queue: an artist with a Telegram id, one real upload, 200 copies by SQL.
      const setUpStarted = performance.now();
      const admin = await tokensOf(s, "admin");
      const artist = await artistWithTelegram(s, "desk");
      const name = runArtist("Desk");
      const [source] = await uploadAs(s, artist.access, [
        { name: `${name} - Source.mp3`, source: "Test Artist - Amen Study.mp3" },
      ], "label_koster");
      await waitCompleted(s, admin.access, [source.id]);
      await waitAnalysed(s, admin.access, [source.id]);
      const names = Array.from({ length: QUEUE }, (_, i) => `${name} - Desk ${String(i + 1).padStart(3, "0")}.mp3`);
      const ids = await copyTracks(server.dataDir, source.id, names);
      expect(ids).toHaveLength(QUEUE);
      const nameOf = new Map(ids.map((id, i) => [id, names[i]]));
      console.log(`      set-up: ${QUEUE} processed tracks in ${Math.round(performance.now() - setUpStarted)} ms`);

      // --- The moderator opens the queue from the sidebar: «Новые», oldest first.
      const page = await signIn(s, "moderator", WIDE);
      await page.goto(`${server.baseUrl}/moderator`);
      await page.getByRole("link", { name: "Tracks", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
      await page.locator("tbody tr[data-track-id]").nth(9).waitFor();
      const opened = new URL(page.url());
      expect(opened.searchParams.get("review")).toBe("new");
      expect(opened.searchParams.get("sort")).toBe("upload_date");
      const firstRows = await rowIds(page);
      expect(firstRows).toEqual(ids.slice(0, 10));

      // Navigations from here on: page loads, route changes (the path), and address updates (the search).
      let loads = 0;
      let routeChanges = 0;
      let addressUpdates = 0;
      let lastUrl = new URL(page.url());
      page.on("load", () => loads++);
      page.on("framenavigated", (frame) => {
        if (frame !== page.mainFrame()) return;
        const now = new URL(frame.url());
        if (now.pathname !== lastUrl.pathname) routeChanges++;
        else if (now.search !== lastUrl.search) addressUpdates++;
        lastUrl = now;
      });
      await instrument(page);
      // Each decision's call answers after the next track has started (the desk moves on at once and
      // the call runs meanwhile): the outbox is read once every one of them has answered (0465).
      const decisionAnswers: number[] = [];
      let answered = () => {};
      page.on("response", (r) => {
        if (r.request().method() !== "PUT" || !/\/tracks\/\d+\/decision$/.test(new URL(r.url()).pathname)) return;
        decisionAnswers.push(r.status());
        answered();
      });

      // Listening starts with J, the first row (not counted as a decision's key; Space would press the
      // sidebar link the focus is still on).
      await page.keyboard.press("j");
      await waitPlayingTrack(page, ids[0]);
      await page.getByTestId("decision-dock").waitFor();
      await page.screenshot({ path: new URL("review-desk-dock-1440.png", SCREENSHOTS).pathname });

      // Each decision: its keys, pressed as a person would after listening; then the next row plays.
      type Plan = { outcome: "declined" | "accepted" | "shortlisted"; keys: string[]; undo?: boolean };
      const plan: Plan[] = [
        { outcome: "declined", keys: ["x", "1"] },
        { outcome: "accepted", keys: ["a", "1"] },
        { outcome: "shortlisted", keys: ["s"] },
        // Taken back with Z inside the hold, then accepted.
        { outcome: "declined", keys: ["x", "2"], undo: true },
        { outcome: "accepted", keys: ["a", "2"] },
        { outcome: "declined", keys: ["x", "1"] },
        { outcome: "shortlisted", keys: ["s"] },
        { outcome: "accepted", keys: ["a", "Enter"] },
        { outcome: "declined", keys: ["x", "1"] },
        { outcome: "shortlisted", keys: ["s"] },
        { outcome: "accepted", keys: ["a", "1"] },
      ];
      const results: { track: number; outcome: string; keys: number; startMs: number }[] = [];
      const final = new Map<number, string>();
      let undone: number | null = null;
      let current = ids[0];
      for (const step of plan) {
        const before = { loads, routeChanges };
        // A little listening: the desk decides while the track plays (its media time, not the test's).
        await page.waitForFunction(() => (document.querySelector("audio")?.currentTime ?? 0) >= 0.3);
        let keys = 0;
        for (const [i, key] of step.keys.entries()) {
          if (i === 1 && step.keys.length === 2 && results.length === 0) {
            // The template chooser of the first decline, as the moderator sees it.
            await page.locator("[data-desk-chooser]").waitFor();
            await page.screenshot({ path: new URL("review-desk-chooser-1440.png", SCREENSHOTS).pathname });
          }
          await page.keyboard.press(key);
          keys++;
        }
        const position = ids.indexOf(current);
        const next = ids[position + 1];
        if (step.undo) {
          // Z while the hold counts down in the dock: the decision is taken back, the track is current again.
          await page.getByTestId("decision-hold").waitFor();
          await waitPlayingTrack(page, next);
          const undoAnswer = page.waitForResponse((r) =>
            r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(`/tracks/${current}/decision/undo`)
          );
          await page.keyboard.press("z");
          expect((await undoAnswer).status(), "the undo within the hold").toBe(200);
          await page.waitForFunction(
            (id) =>
              document.querySelector("tbody tr[aria-current='true']")?.getAttribute("data-track-id") === String(id),
            current,
          );
          undone = current;
          console.log(`      Z: «${nameOf.get(current)}» taken back inside the hold (1 key)`);
          continue;
        }
        await waitPlayingTrack(page, next);
        const startMs = await lastStartMs(page);
        expect(loads, "no page load").toBe(before.loads);
        expect(routeChanges, "no route change").toBe(before.routeChanges);
        results.push({ track: current, outcome: step.outcome, keys, startMs });
        final.set(current, step.outcome);
        if (step.outcome !== "shortlisted") expect(keys).toBeLessThanOrEqual(3);
        else expect(keys).toBe(1);
        current = next;
      }
      expect(results).toHaveLength(10);
      // Eleven decisions: the ten kept and the one taken back.
      while (decisionAnswers.length < plan.length) await new Promise<void>((r) => (answered = r));
      expect(decisionAnswers).toEqual(plan.map(() => 200));
      expect(loads).toBe(0);
      expect(routeChanges).toBe(0);
      // The address follows the playing track.
      expect(new URL(page.url()).searchParams.get("track")).toBe(String(current));

      // Decided rows stay in place, marked, until the list is read again; the list did not jump.
      const marked = await page.locator("tbody tr[data-left]").count();
      console.log(`      rows kept in place, marked as decided: ${marked}`);

      console.log("      decision            keys  next track started after the deciding key");
      for (const r of results) {
        console.log(`      ${r.outcome.padEnd(18)}  ${String(r.keys).padStart(4)}  ${r.startMs} ms`);
      }
      const per = (o: string) => results.filter((r) => r.outcome === o);
      for (const o of ["declined", "accepted", "shortlisted"]) {
        const rs = per(o);
        console.log(
          `      ${o}: max ${Math.max(...rs.map((r) => r.keys))} keys; start ${rs.map((r) => r.startMs).join("/")} ms`,
        );
      }
      console.log(
        `      page loads ${loads}, route changes ${routeChanges}, address updates (?track=) ${addressUpdates}`,
      );

      // --- Telegram: nothing for the decision taken back; after the hold one message per decided pair.
      // A shortlist by S carries no message, and the artist is told only of an acceptance, a decline or
      // a message (the server's rule since issue 13): those pairs get exactly one message each, and
      // each accepted label pair also the release desk's request for materials (issue 34).
      const told = [...final].filter(([, outcome]) => outcome !== "shortlisted");
      const accepted = [...final.values()].filter((o) => o === "accepted").length;
      expect(bot.delivered, "nothing is sent during the hold").toHaveLength(0);
      // What the hold keeps back, as the outbox kit sees it: a message per told pair, a request per acceptance.
      expect(await stillOnTheWay(server.dataDir, artist.id, [])).toHaveLength(told.length + accepted);
      await endHolds(server.dataDir, HOLD_S * 1000);
      await bot.whenDelivered(() => true, told.length + accepted);
      const texts = bot.delivered.map((c) => String(c.body.text));
      // Nothing more on its way: no message waiting or being sent, no request still to be written.
      expect(await stillOnTheWay(server.dataDir, artist.id, texts)).toEqual([]);
      for (const [id, outcome] of final) {
        const title = nameOf.get(id)!.replace(/\.mp3$/, "");
        expect(texts.filter((x) => x.includes(title)), title).toHaveLength(outcome === "shortlisted" ? 0 : 1);
      }
      const requests = texts.filter((x) => x.includes("Чтобы выпустить релиз"));
      expect(requests).toHaveLength(accepted);
      expect(bot.delivered.length - requests.length).toBe(told.length);
      // The track taken back was accepted afterwards: its one message is the acceptance.
      expect(undone).not.toBeNull();
      expect(final.get(undone!)).toBe("accepted");
      const undoneText = texts.find((x) => x.includes(nameOf.get(undone!)!.replace(/\.mp3$/, "")))!;
      expect(undoneText).toContain("Принят");
      expect(undoneText).not.toContain("Отклон");
      console.log(
        `      Bot API double: ${bot.delivered.length} messages for ${told.length} accepted or declined pairs (${
          final.size - told.length
        } shortlisted without a message: none)`,
      );
    } finally {
      await bot.stop();
    }
  },
  { timeout: 180_000 },
);

test("review desk: the playing track survives the edit page and Back, a reload and a copied address", async (t) => {
  const artist = await tokensOf(t, "artist");
  const admin = await tokensOf(t, "admin");
  const name = runArtist("Kept");
  const uploads = await uploadAs(t, artist.access, [
    { name: `${name} - One.mp3`, source: "Test Artist - Amen Study.mp3" },
    { name: `${name} - Two.mp3`, source: "Test Artist - Amen Study.mp3" },
    { name: `${name} - Three.mp3`, source: "Test Artist - Amen Study.mp3" },
  ], "label_koster");
  await waitCompleted(t, admin.access, uploads.map((u) => u.id));

  const page = await signIn(t, "moderator", WIDE);
  await page.goto(`${t.server.baseUrl}/moderator/tracks?filename=${encodeURIComponent(name)}`);
  await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
  await page.locator("tbody tr[data-track-id]").nth(2).waitFor();
  const order = await rowIds(page);
  const chosen = uploads.find((u) => u.id === order[1])!;
  await page.locator(`tr[data-track-id="${chosen.id}"]`).getByRole("button", { name: `Play: ${chosen.filename}` })
    .click();
  await waitPlayingTrack(page, chosen.id);
  await page.waitForURL((u) => u.searchParams.get("track") === String(chosen.id));
  const address = page.url();

  /** The player holds `id`: its row is current, its audio is loaded, its name is in the player. */
  const holds = async (p: Page, id: number, filename: string) => {
    await p.waitForFunction((id) => {
      const a = document.querySelector("audio");
      const row = document.querySelector("tbody tr[aria-current='true']");
      return a && (a.getAttribute("src") ?? "") !== "" && row?.getAttribute("data-track-id") === String(id);
    }, id);
    await p.locator(".st-player-title strong", { hasText: filename }).waitFor();
    expect(new URL(p.url()).searchParams.get("track")).toBe(String(id));
  };

  // The edit page, then Back.
  await page.locator(`tr[data-track-id="${chosen.id}"]`).getByRole("link", { name: /edit/i }).first().click();
  await page.waitForURL((u) => u.pathname.endsWith(`/tracks/${chosen.id}/edit`));
  await page.goBack();
  await holds(page, chosen.id, chosen.filename);

  // A reload: the track is held ready (the browser may refuse to start sound without a gesture).
  await page.reload();
  await holds(page, chosen.id, chosen.filename);

  // The copied address in another browser.
  const other = await signIn(t, "moderator", WIDE);
  await other.goto(address);
  await holds(other, chosen.id, chosen.filename);
  console.log(`      Back, reload and a copied address land on «${chosen.filename}» (${address})`);

  // The same address on a phone: the dock's decline opens the templates as a sheet from the bottom.
  const phone = await signIn(t, "moderator", { width: 390, height: 844 });
  await phone.goto(address);
  await phone.waitForFunction(
    (id) => document.querySelector("[aria-current='true']")?.getAttribute("data-track-id") === String(id),
    chosen.id,
  );
  await phone.getByTestId("decision-dock").getByRole("button", { name: /Decline/ }).click();
  const sheet = phone.locator(".dk-sheet[data-open]");
  await sheet.locator("[data-desk-chooser]").waitFor();
  const box = (await sheet.boundingBox())!;
  expect(box.x).toBe(0);
  expect(box.width).toBe(390);
  expect(Math.round(box.y + box.height)).toBe(844);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
  await phone.screenshot({ path: new URL("review-desk-sheet-390.png", SCREENSHOTS).pathname });
});
