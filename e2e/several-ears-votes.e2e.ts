/**
 * Issue 24 in Chromium, the votes (docs/decisions/0229, 0230). The test's own set-up: an artist of
 * its own uploads one track to «Радио К-Профит», and two moderators of their own are given that
 * category through the admin API. At 1440×900 the first opens the track on the desk (`?track=`),
 * sees nobody has voted, and votes 👍 with a word in the dock. The second opens it, sees one vote
 * without whose or which, votes 👎, and then sees both votes with names and the word. The track
 * then shows under the queue's «Нужно второе мнение» (split votes) with its score badge, and the
 * admin's desk shows the votes without having voted. Screenshot of the desk with the votes at 1440.
 */
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { apiAs, newUser, signIn, tokensOf, uploadAs, waitCompleted, WIDE } from "./staff-kit.ts";

const CATEGORY = "radio_k_profit";

async function moderatorOf(t: TestContext, prefix: string, adminToken: string) {
  const user = await newUser(t, prefix);
  const made = await apiAs(t, adminToken, `/admin/users/${user.id}`, {
    method: "PUT",
    body: JSON.stringify({ is_moderator: true, moderator_categories: CATEGORY }),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return user;
}

/** The dock's votes for the track the desk holds (the track opened by its address). */
async function openOnDesk(page: Page, t: TestContext, base: "/admin" | "/moderator", id: number, filename: string) {
  const search = new URLSearchParams({ filename: filename.replace(/\.mp3$/, ""), track: String(id) });
  await page.goto(`${t.server.baseUrl}${base}/tracks?${search}`);
  await page.locator(`tbody tr[data-track-id='${id}']`).waitFor();
  const votes = page.getByTestId("decision-dock").getByTestId("track-votes");
  await votes.waitFor();
  return votes;
}

test("two moderators vote differently on a track; it needs a second ear; each sees the other's vote only after voting", async (t) => {
  const admin = await tokensOf(t, "admin");
  const artist = await newUser(t, "Ears");
  const first = await moderatorOf(t, "Firstear", admin.access);
  const second = await moderatorOf(t, "Secondear", admin.access);
  const filename = `Ears ${crypto.randomUUID().slice(0, 8)} - Two Opinions.mp3`;
  const [track] = await uploadAs(
    t,
    artist.access,
    [{ name: filename, source: "Test Artist - Amen Study.mp3" }],
    CATEGORY,
  );
  await waitCompleted(t, admin.access, [track.id]);

  // The first ear: nobody has voted yet; 👍 with a word.
  const pageA = await signIn(t, first.username, WIDE);
  const votesA = await openOnDesk(pageA, t, "/moderator", track.id, filename);
  expect(await votesA.textContent()).toContain("Nobody has voted yet");
  await votesA.getByLabel("A word with the vote (optional)").fill("качает");
  const castA = pageA.waitForResponse((r) => r.url().includes(`/votes/${CATEGORY}`) && r.request().method() === "PUT");
  await votesA.getByRole("button", { name: "For" }).click();
  expect((await castA).status()).toBe(200);
  await votesA.getByRole("list", { name: "Votes" }).waitFor();
  expect(await votesA.getByRole("button", { name: "For" }).getAttribute("aria-pressed")).toBe("true");

  // The second ear: one vote, neither whose nor which, until they vote themselves.
  const pageB = await signIn(t, second.username, WIDE);
  const votesB = await openOnDesk(pageB, t, "/moderator", track.id, filename);
  const before = await votesB.textContent();
  expect(before).toContain("Votes: 1. They show once you vote");
  expect(before).not.toContain(first.username);
  expect(before).not.toContain("качает");
  const scoreBefore = pageB.locator(`tbody tr[data-track-id='${track.id}'] [data-testid='vote-score']`);
  expect((await scoreBefore.textContent())?.startsWith("?")).toBe(true);
  const castB = pageB.waitForResponse((r) => r.url().includes(`/votes/${CATEGORY}`) && r.request().method() === "PUT");
  await votesB.getByRole("button", { name: "Against" }).click();
  expect((await castB).status()).toBe(200);
  const list = votesB.getByRole("list", { name: "Votes" });
  await list.waitFor();
  const items = await list.getByRole("listitem").allTextContents();
  expect(items).toHaveLength(2);
  expect(items[0]).toContain(first.username);
  expect(items[0]).toContain("качает");
  expect(items[1]).toContain(second.username);
  // The row's badge shows the score now seen: +1 − 1 = 0, two votes, split: a second ear wanted.
  await pageB.waitForFunction((id) => {
    const badge = document.querySelector(`tbody tr[data-track-id='${id}'] [data-testid='vote-score']`);
    return badge?.querySelector("strong")?.textContent === "0";
  }, track.id);

  // Split votes: the queue's "Needs a second ear" (votes=second_ear; the moderator's panel is in
  // English, decision 0227) lists the track.
  await pageB.getByRole("combobox", { name: "Votes" }).selectOption("second_ear");
  await pageB.waitForURL((u) => u.searchParams.get("votes") === "second_ear");
  await pageB.locator(`tbody tr[data-track-id='${track.id}']`).waitFor();
  const ear = await pageB.locator(`tbody tr[data-track-id='${track.id}'] [data-testid='vote-score']`).textContent();
  expect(ear).toContain("second ear");
  const api = await apiAs(t, second.access, `/moderator/tracks?votes=second_ear&direction=${CATEGORY}`);
  expect(api.body.tracks.map((r: { id: number }) => r.id)).toContain(track.id);

  // The admin, the decider, sees both votes with names without voting.
  const pageAdmin = await signIn(t, "admin", WIDE);
  const votesAdmin = await openOnDesk(pageAdmin, t, "/admin", track.id, filename);
  await votesAdmin.getByRole("list", { name: "Голоса" }).waitFor();
  expect(await votesAdmin.getByRole("listitem").count()).toBe(2);

  // The desk with the votes at 1440, as the second moderator sees it after voting.
  await pageB.locator(`tbody tr[data-track-id='${track.id}'] [data-testid='vote-score']`).scrollIntoViewIfNeeded();
  await t.screenshot(pageB, "votes-desk-1440");
});
