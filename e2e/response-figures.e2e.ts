/**
 * The dashboards' response figures (issue 24, decision 0235) in Chromium, with a set-up of its own:
 * a new moderator for «Радио К-Профит», one upload there. The moderator's dashboard shows the
 * direction's and their own figures; after they listen (a real listening receipt: the link opened,
 * 20 s reported as played) and accept the track, the same page shows one more heard and decided
 * track for the direction and for them, and the admin's dashboard agrees. The moderator's figures at
 * 390 px scroll inside their own frame, never the page.
 */
import { expect, type Page, test } from "./harness.ts";
import { apiAs, newUser, open, runArtist, signIn, tokensOf, uploadAs, waitCompleted } from "./staff-kit.ts";

const DIRECTION = "radio_k_profit";
const PHONE = { width: 390, height: 844 };

type Cells = Record<string, string>;

/** The figures' row as the page shows it: received, heard, decided, the waits, the share. */
async function row(page: Page, key: string): Promise<Cells> {
  const tr = page.getByTestId(`figures-${key}`);
  await tr.waitFor();
  return await tr.evaluate((el) =>
    Object.fromEntries([...el.querySelectorAll("td")].map((td) => [td.dataset.col ?? "", td.textContent ?? ""]))
  );
}

test("response figures: a listen and a decision show on both dashboards", async (t) => {
  const admin = await tokensOf(t, "admin");
  const mod = await newUser(t, "Fig");
  const made = await apiAs(t, admin.access, `/admin/users/${mod.id}`, {
    method: "PUT",
    body: JSON.stringify({ username: mod.username, is_moderator: true, moderator_categories: DIRECTION }),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const artist = await tokensOf(t, "artist");
  const [track] = await uploadAs(t, artist.access, [{
    name: `${runArtist("Fig")} - Response.mp3`,
    source: "Low Rate - 128 kbps.mp3",
  }], DIRECTION);
  await waitCompleted(t, admin.access, [track.id]);

  const page = await signIn(t, mod.username);
  await open(page, t, "/moderator", "Dashboard");
  await page.getByRole("region", { name: "Response times", exact: true }).waitFor();
  const before = await row(page, DIRECTION);
  const mine = `user-${mod.id}`;
  expect(await row(page, mine)).toMatchObject({ heard: "0", decided: "0", "to-listen": "— / —", within: "—" });
  // Only their direction and their own row.
  expect(await page.locator('[data-testid^="figures-"]').count()).toBe(2);

  // A listen: the link opened, then the played time reported until the track counts as heard.
  const listen = await apiAs(t, mod.access, `/moderator/tracks/${track.id}/listen`);
  expect(listen.status, JSON.stringify(listen.body)).toBe(200);
  let heard = false;
  for (let i = 0; i < 8 && !heard; i++) {
    await new Promise((r) => setTimeout(r, 3_000));
    const r = await apiAs(t, mod.access, `/moderator/tracks/${track.id}/listened`, {
      method: "POST",
      body: JSON.stringify({ seconds: 3 }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    heard = r.body.heard === true;
  }
  expect(heard).toBe(true);
  await open(page, t, "/moderator", "Dashboard");
  const afterListen = await row(page, DIRECTION);
  expect(Number(afterListen.heard)).toBe(Number(before.heard) + 1);
  expect(afterListen.decided).toBe(before.decided);
  expect(await row(page, mine)).toMatchObject({ heard: "1", decided: "0" });
  expect((await row(page, mine))["to-listen"]).not.toBe("— / —");

  // A decision for the whole track.
  const decided = await apiAs(t, mod.access, `/moderator/tracks/${track.id}/decision`, {
    method: "PUT",
    body: JSON.stringify({ status: "accepted", revisions: { [DIRECTION]: 1 } }),
  });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  await open(page, t, "/moderator", "Dashboard");
  const afterDecision = await row(page, DIRECTION);
  expect(Number(afterDecision.decided)).toBe(Number(before.decided) + 1);
  const own = await row(page, mine);
  expect(own).toMatchObject({ heard: "1", decided: "1", within: "100% (1/1)" });
  expect(own["to-decision"]).toMatch(/^\d+ min \/ \d+ min$/);
  await t.screenshot(page, "response-figures-moderator-1440");

  // The admin's dashboard shows the same person with the same figures.
  const adminPage = await signIn(t, "admin");
  await open(adminPage, t, "/admin", "Панель управления");
  await adminPage.getByRole("region", { name: "Скорость ответа", exact: true }).waitFor();
  expect(await row(adminPage, mine)).toMatchObject({ heard: "1", decided: "1", within: "100% (1/1)" });
  expect((await row(adminPage, DIRECTION)).decided).toBe(afterDecision.decided);
  await t.screenshot(adminPage, "response-figures-admin-1440");

  // At 390 px the page does not scroll sideways; the tables scroll in their own frames.
  const phone = await signIn(t, mod.username, PHONE);
  await open(phone, t, "/moderator", "Dashboard");
  await phone.getByRole("region", { name: "Response times", exact: true }).waitFor();
  const widths = await phone.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  await phone.getByRole("region", { name: "Response times", exact: true }).scrollIntoViewIfNeeded();
  await t.screenshot(phone, "response-figures-moderator-390");
});
