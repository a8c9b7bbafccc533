/**
 * Issue 24 in Chromium, on two instances sharing one database (each with its own embedded status
 * store and memory, one signing key): the admin on A assigns one of two new tracks to the seeded
 * moderator from the selection and plays the other in the review player; the moderator's queue on
 * B shows «Слушает @admin» on the played track (the player's listening reports are the heartbeat,
 * decision 0234) and «Назначен вам» on the assigned one, and «Мне назначено» narrows the list to it.
 * Screenshots of the moderator's queue at 1440 px and of the phone cards at 390 px.
 */
import { expect, type ExtraServer, test, type TestContext } from "./harness.ts";
import { newUser, runArtist, signIn, tokensOf, uploadAs, waitCompleted, waitPlaying, WIDE } from "./staff-kit.ts";

const on = (t: TestContext, server: ExtraServer): TestContext => ({ ...t, server });

test(
  "two instances: an assignment made on A and a track played on A show in the moderator's queue on B",
  async (t) => {
    const dbDir = await Deno.makeTempDir({ prefix: "np-e2e-assign-db-" });
    const env = { DATABASE_URL: `file:${dbDir}/app.db`, JWT_SECRET: `assign-${crypto.randomUUID()}` };
    const a = await t.startServer(env);
    const b = await t.startServer(env);
    const onA = on(t, a);
    const onB = on(t, b);

    // --- Two new tracks for label_koster, uploaded and processed on A.
    const artist = await newUser(onA, "Pair");
    const name = runArtist("Pair");
    const [assigned, played] = await uploadAs(onA, artist.access, [
      { name: `${name} - Assigned.mp3`, source: "Test Artist - Amen Study.mp3" },
      { name: `${name} - Played.mp3`, source: "Test Artist - Amen Study.mp3" },
    ], "label_koster");
    const admin = await tokensOf(onA, "admin");
    await waitCompleted(onA, admin.access, [assigned.id, played.id]);

    // --- The admin on A: the selection goes to the moderator, then the other track plays.
    const desk = await signIn(onA, "admin", WIDE);
    await desk.goto(`${a.baseUrl}/admin/tracks?filename=${encodeURIComponent(name)}`);
    const row = (page: typeof desk, id: number) => page.locator(`[data-track-id="${id}"]`);
    await row(desk, assigned.id).waitFor();
    await row(desk, assigned.id).getByRole("checkbox").check();
    const bulk = desk.getByLabel("Назначить выбранные");
    await desk.waitForFunction(() =>
      [...document.querySelectorAll("option")].some((o) => o.textContent?.includes("@moderator"))
    );
    const option = await bulk.locator("option", { hasText: "@moderator" }).getAttribute("value");
    await bulk.selectOption(option!);
    await desk.getByRole("button", { name: "Назначить выбранные" }).click();
    await row(desk, assigned.id).getByText(/^Назначен: /).waitFor();

    const report = desk.waitForResponse((r) =>
      new URL(r.url()).pathname === `/api/admin/tracks/${played.id}/listened` && r.ok()
    );
    await row(desk, played.id).getByRole("button", { name: /^Слушать:/ }).click();
    await waitPlaying(desk, played.id);
    await report;
    await desk.getByTestId("desk-assignment").waitFor();
    await t.screenshot(desk, "assignment-desk-1440");

    // --- The moderator on B sees both, from the shared database.
    const queue = await signIn(onB, "moderator", WIDE);
    await queue.goto(`${b.baseUrl}/moderator/tracks?filename=${encodeURIComponent(name)}`);
    await row(queue, played.id).getByText("@admin is listening").waitFor({ timeout: 15_000 });
    await row(queue, assigned.id).getByText("Assigned to you").waitFor();
    expect(await row(queue, assigned.id).getByText(/is listening/).count()).toBe(0);
    await t.screenshot(queue, "assignment-queue-1440");

    await queue.getByTestId("assigned-to-me").click();
    await queue.waitForURL((u) => u.searchParams.get("assigned") === "me");
    await row(queue, played.id).waitFor({ state: "detached" });
    const shown = await queue.locator("tbody tr[data-track-id]").evaluateAll((rows) =>
      rows.map((r) => Number(r.getAttribute("data-track-id")))
    );
    expect(shown).toEqual([assigned.id]);

    // --- The phone cards on B carry the same marks (within the 30 s window of the last report).
    const phone = await signIn(onB, "moderator", { width: 390, height: 844 });
    await phone.goto(`${b.baseUrl}/moderator/tracks?filename=${encodeURIComponent(name)}`);
    await phone.getByTestId("track-cards").waitFor();
    await row(phone, played.id).getByText("@admin is listening").waitFor({ timeout: 15_000 });
    await t.screenshot(phone, "assignment-queue-phone-390");
  },
  { timeout: 120_000 },
);
