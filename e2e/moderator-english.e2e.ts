/**
 * Issue 31: the moderator's panel speaks English. On a server of its own (so every piece of user
 * content on screen is this test's or the seed's), the seeded moderator walks every screen of the
 * panel — the dashboard, the intake rules, the track list with the desk playing (dock, votes,
 * comments, assignment), the key legend, the template chooser, the hold line after a decision, the
 * split and delete dialogs, the edit page with its decision panel and history, the FAQ list with its
 * dialogs and the FAQ edit page, and at 390 px the cards, the filter panel and the dock's sheet —
 * and collects what a person or a screen reader gets: visible text, accessible names, titles,
 * placeholders, the phone table's labels and the page title. It removes user content (elements
 * marked `data-user-content`, and the names, file names, template and FAQ texts this server holds)
 * and the proper names (the directions, the site's name), and fails listing any Cyrillic left.
 * The user content is Russian on purpose: the test proves it is told apart, not absent.
 */
import { DIRECTION_LABELS } from "../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS, MODERATOR_CATEGORY_LABELS } from "../domain/staff-directions.ts";
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { apiAs, signIn, tokensOf, uploadAs, waitCompleted, WIDE } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const CYRILLIC = /[\u0400-\u04FF]/;

/** The spec's proper names: the directions in each panel's spelling, and the site's name. */
const PROPER_NAMES = [
  ...Object.values(MODERATOR_CATEGORY_LABELS),
  ...Object.values(DIRECTION_LABELS),
  ...Object.values(ADMIN_DIRECTION_LABELS),
  "Нейропанк",
];

interface Seen {
  texts: string[];
  user: string[];
}

/**
 * What the panel says now: text nodes and the accessible attributes of the page's main part, its
 * dialogs and the document title (the site's header, footer and cookie notice around the panel are
 * the Russian site's: decision 0281). Text inside `[data-user-content]` is left out, and its words
 * are returned to be taken out of names and titles that quote it ("Play: <file name>").
 */
function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const roots = [...document.querySelectorAll("main, [role=dialog], [role=alertdialog]")];
    const user = [...document.querySelectorAll("[data-user-content]")]
      .map((e) => (e.textContent ?? "").trim())
      .filter(Boolean);
    const shown = (el: Element) => {
      const box = el.closest("select") ?? el;
      return (box as HTMLElement).checkVisibility?.({ visibilityProperty: true }) ?? true;
    };
    const texts = new Set<string>([document.title]);
    const ATTRS = ["aria-label", "title", "placeholder", "alt", "data-label", "aria-description", "aria-valuetext"];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        const text = (node.textContent ?? "").trim();
        if (!el || !text || el.closest("script, style, [data-user-content]") || !shown(el)) continue;
        texts.add(text);
      }
      for (const el of [root, ...root.querySelectorAll("*")]) {
        if (el.closest("[data-user-content]") || !shown(el)) continue;
        for (const a of ATTRS) {
          const v = el.getAttribute(a)?.trim();
          if (v) texts.add(v);
        }
      }
    }
    return { texts: [...texts], user };
  });
}

/** The user content this server holds: people's names, file names, FAQ, templates, comments, votes. */
async function userContent(t: TestContext, adminToken: string): Promise<string[]> {
  const users = (await apiAs(t, adminToken, "/admin/users?page_size=100")).body.users as Array<Record<string, unknown>>;
  const tracks = (await apiAs(t, adminToken, "/admin/tracks?page_size=100")).body.tracks as Array<{ id: number }>;
  const faqs = (await apiAs(t, adminToken, "/admin/faq")).body;
  const templates = (await apiAs(t, adminToken, "/admin/decline-templates")).body;
  const out: string[] = [];
  for (const u of users) out.push(...Object.values(u).filter((v): v is string => typeof v === "string"));
  for (const { id } of tracks) {
    const { track } = (await apiAs(t, adminToken, `/admin/tracks/${id}`)).body;
    out.push(track.filename);
    for (const c of track.comments ?? []) out.push(c.text, c.author?.name ?? "");
    for (const v of track.votes ?? []) out.push(v.name ?? "", v.word ?? "");
    for (const d of track.decisions ?? []) out.push(d.note ?? "", d.message ?? "");
  }
  for (const f of faqs.faqs) out.push(f.question, f.answer);
  for (const tpl of templates.templates) out.push(tpl.title, tpl.text);
  return out.map((s) => String(s ?? "").trim()).filter((s) => CYRILLIC.test(s));
}

/** The strings of `s` with Cyrillic left once user content and proper names are taken out. */
function leftovers(where: string, s: Seen, known: string[]): string[] {
  // Longest first, so a name inside a longer text does not leave the rest behind.
  const strip = [...new Set([...s.user, ...known, ...PROPER_NAMES])].filter(Boolean)
    .sort((a, b) => b.length - a.length);
  return s.texts.flatMap((text) => {
    let rest = text;
    for (const u of strip) rest = rest.split(u).join(" ");
    return CYRILLIC.test(rest) ? [`${where}: ${JSON.stringify(text)}`] : [];
  });
}

async function waitDesk(page: Page) {
  await page.waitForFunction(
    () => {
      const a = document.querySelector("audio");
      return a && !a.paused && a.currentTime > 0 && document.querySelector("[data-testid=decision-dock]") !== null;
    },
    undefined,
    { timeout: 15_000 },
  );
}

test("moderator panel: every screen in English outside user content and direction names", async (t) => {
  const server = await t.startServer();
  const s: TestContext = { ...t, server };
  const admin = await tokensOf(s, "admin");
  const artist = await tokensOf(s, "artist");
  const moderator = await tokensOf(s, "moderator");

  // Russian user content on purpose: file names, a comment, a vote's word, a staff note.
  const tracks = await uploadAs(s, artist.access, [
    { name: "Тестовый Артист - Первый Трек.mp3", source: "Synth Artist - Clipped Drop.mp3" },
    { name: "Тестовый Артист - Второй Трек.mp3", source: "Low Rate - 128 kbps.mp3" },
    { name: "Тестовый Артист - Третий Трек.mp3", source: "Test Artist - Amen Study.mp3" },
  ], "label_koster");
  await waitCompleted(s, admin.access, tracks.map((x) => x.id));
  const meId = (await apiAs(s, moderator.access, "/auth/me")).body.user.id as number;
  for (const x of tracks) {
    const made = await apiAs(s, admin.access, `/admin/tracks/${x.id}/comments`, {
      method: "POST",
      body: JSON.stringify({ at_s: 2, end_s: null, text: "Кик клиппует на дропе", shared: false }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const voted = await apiAs(s, admin.access, `/admin/tracks/${x.id}/votes/label_koster`, {
      method: "PUT",
      body: JSON.stringify({ vote: 1, word: "качает" }),
    });
    expect(voted.status, JSON.stringify(voted.body)).toBe(200);
  }
  const assigned = await apiAs(s, admin.access, `/admin/tracks/${tracks[1].id}/assignee`, {
    method: "PUT",
    body: JSON.stringify({ user_id: meId }),
  });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);

  const found: string[] = [];
  let known = await userContent(s, admin.access);
  const check = async (page: Page, where: string) => found.push(...leftovers(where, await seen(page), known));

  const page = await signIn(s, "moderator", WIDE);
  await page.goto(`${server.baseUrl}/moderator`);
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  await page.getByRole("region", { name: "Review queue" }).waitFor();
  await page.getByRole("region", { name: "Response times", exact: true }).waitFor();
  await check(page, "dashboard");

  await page.getByRole("link", { name: "Intake rules of your categories →" }).click();
  await page.locator("main h1").waitFor();
  await check(page, "intake rules");

  // The list as the sidebar opens it (New, oldest first), then the desk on its first track.
  await page.getByRole("navigation").getByRole("link", { name: "Tracks" }).click();
  await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
  const first = page.locator(`tr[data-track-id="${tracks[0].id}"]`);
  await first.waitFor();
  await check(page, "track list");
  await first.getByRole("button", { name: `Play: ${tracks[0].filename}` }).click();
  await waitDesk(page);
  await page.getByTestId("track-votes").waitFor();
  await page.locator(".st-comment-text").first().waitFor();
  await check(page, "desk playing");

  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Shift+Slash");
  await page.locator(".dk-legend").waitFor();
  await check(page, "key legend");
  await page.keyboard.press("Escape");

  await page.keyboard.press("x");
  await page.getByRole("group", { name: "Decline: ready-made message" }).waitFor();
  await page.locator(".dk-template").first().waitFor();
  await check(page, "template chooser");
  await page.keyboard.press("Enter");
  await page.locator(".dk-status").filter({ hasText: "declined" }).waitFor();
  await waitDesk(page);
  await check(page, "after a decision (hold line, next track)");

  // The vote: the others' votes show once the caller has voted.
  await page.getByTestId("track-votes").getByRole("button", { name: "For" }).first().click();
  await page.getByTestId("track-votes").getByRole("list", { name: "Votes" }).first().waitFor();
  await check(page, "votes after voting");

  await page.getByRole("button", { name: "Split new" }).click();
  await page.getByRole("dialog").waitFor();
  await check(page, "split dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).first().click();
  await page.getByRole("dialog").waitFor({ state: "detached" });

  await page.getByRole("button", { name: `Delete: ${tracks[2].filename}` }).click();
  await page.getByRole("dialog").waitFor();
  await check(page, "delete dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });

  // The edit page of the declined track: decision panel, listens, votes and the history.
  known = await userContent(s, admin.access);
  await page.goto(`${server.baseUrl}/moderator/tracks/${tracks[0].id}/edit`);
  await page.getByRole("heading", { level: 1, name: "Edit Track" }).waitFor();
  await page.locator(".dp-history-table tbody tr").first().waitFor();
  await page.getByTestId("staff-listen").first().waitFor();
  await check(page, "edit page");

  await page.goto(`${server.baseUrl}/moderator/faq`);
  await page.getByRole("heading", { level: 1, name: "Manage FAQ" }).waitFor();
  await page.locator(".st-faq-q").first().waitFor();
  await check(page, "FAQ list");
  await page.getByRole("button", { name: "Add New FAQ" }).first().click();
  await page.getByRole("dialog").waitFor();
  await check(page, "FAQ add dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
  await page.getByRole("button", { name: /^Delete: / }).first().click();
  await page.getByRole("dialog").waitFor();
  await check(page, "FAQ delete dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.goto(`${server.baseUrl}/moderator/faq/edit`);
  await page.getByRole("heading", { level: 1, name: "Add New FAQ" }).waitFor();
  await check(page, "FAQ add page");
  await page.goto(`${server.baseUrl}/moderator/faq`);
  await page.getByRole("link", { name: /^Open editor with preview: / }).first().click();
  await page.getByRole("heading", { level: 1, name: "Edit FAQ" }).waitFor();
  await page.getByTestId("faq-preview-body").waitFor();
  await check(page, "FAQ edit page");

  // The phone: cards, the filter panel, and the dock's sheet while a track plays.
  const phone = await signIn(s, "moderator", PHONE);
  await phone.goto(`${server.baseUrl}/moderator/tracks?sort=upload_date`);
  await phone.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
  const card = phone.locator(`li[data-track-id="${tracks[1].id}"]`);
  await card.waitFor();
  await check(phone, "cards at 390");
  await phone.getByRole("button", { name: /^Filters/ }).click();
  await phone.getByRole("button", { name: "Done" }).waitFor();
  await check(phone, "filter panel at 390");
  await phone.getByRole("button", { name: "Done" }).click();
  await card.getByRole("button", { name: `Play: ${tracks[1].filename}` }).click();
  await waitDesk(phone);
  await phone.getByRole("button", { name: /message and note$/i }).click();
  await phone.locator(".dk-sheet[data-open]").waitFor();
  await check(phone, "dock sheet at 390");
  await t.screenshot(phone, "moderator-english-sheet-390");
  await t.screenshot(page, "moderator-english-faq-edit-1440");

  if (found.length > 0) console.log(found.join("\n"));
  expect(found).toEqual([]);
}, { timeout: 180_000 });
