/**
 * Issue 24: comments pinned to a moment of the waveform. A moderator, in the real player, pins a
 * comment shared with the artist at 0:20 (C, then "show to the artist", Enter) and a staff-only one
 * at 0:30; the artist's history at phone width shows the track's waveform with one marker, at 0:20,
 * the comment signed «Команда лейбла», and plays their own file from the marker. Screenshots: the
 * staff player with its markers at 1440 px, the artist's history at 390 px.
 */
import { expect, test } from "./harness.ts";
import { audit } from "./axe-kit.ts";
import { apiAs, newUser, runArtist, signIn, tokensOf, uploadAs, waitCompleted, WIDE } from "./staff-kit.ts";

const SHARED = "Бас расходится с бочкой — послушайте здесь";
const STAFF_ONLY = "Только для нас: кик клиппует";

test(
  "comments on the waveform: a shared one at 0:20 reaches the artist's history and plays from there, a staff-only one at 0:30 does not",
  async (t) => {
    const artist = await newUser(t, "Commented");
    const admin = await tokensOf(t, "admin");
    const name = runArtist("Ears");
    const [track] = await uploadAs(t, artist.access, [{
      name: `${name} - Forty.mp3`,
      source: "Long Artist - Forty Seconds.mp3",
    }], "label_koster");
    await waitCompleted(t, admin.access, [track.id]);

    // The moderator: play, pause, go to 0:20, C, type, share, Enter; then 0:30, staff-only.
    const staff = await signIn(t, "moderator", WIDE);
    await staff.goto(`${t.server.baseUrl}/moderator/tracks?filename=${encodeURIComponent(name)}`);
    await staff.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
    await staff.locator(`tr[data-track-id="${track.id}"]`).getByRole("button", { name: `Play: ${track.filename}` })
      .click();
    await staff.waitForFunction(() => {
      const a = document.querySelector("audio");
      return a && !a.paused && a.currentTime > 0;
    });
    await staff.keyboard.press("Space");
    await staff.waitForFunction(() => document.querySelector("audio")?.paused === true);

    const pin = async (at: number, text: string, shared: boolean) => {
      await staff.evaluate((at) => {
        document.querySelector("audio")!.currentTime = at;
      }, at);
      await staff.waitForFunction((at) => Math.abs(document.querySelector("audio")!.currentTime - at) < 0.05, at);
      await staff.locator("body").click({ position: { x: 5, y: 5 } });
      await staff.keyboard.press("KeyC");
      const field = staff.getByRole("textbox", { name: /New comment at/ });
      await field.waitFor();
      await field.fill(text);
      if (shared) await staff.locator(".st-comment-form").getByRole("switch", { name: "show to the artist" }).check();
      const saved = staff.waitForResponse((r) =>
        r.url().endsWith(`/api/moderator/tracks/${track.id}/comments`) && r.request().method() === "POST"
      );
      await field.press("Enter");
      expect((await saved).status()).toBe(201);
      await field.waitFor({ state: "detached" });
    };
    await pin(20, SHARED, true);
    await pin(30, STAFF_ONLY, false);
    await staff.locator(".st-wave-marker").nth(1).waitFor();
    const markers = await staff.locator(".st-wave-marker").evaluateAll((els) =>
      els.map((e) => [Number((e as HTMLElement).dataset.at), e.hasAttribute("data-shared")])
    );
    expect(markers).toEqual([[20, true], [30, false]]);
    // A marker seeks there.
    await staff.locator(".st-wave-marker").nth(1).click();
    await staff.waitForFunction(() => Math.abs(document.querySelector("audio")!.currentTime - 30) < 0.5);
    await t.screenshot(staff, "comments-staff-player-1440");
    expect(await audit(staff, "staff player with comments @1440")).toEqual([]);

    const detail = await apiAs(t, admin.access, `/admin/tracks/${track.id}`);
    expect(
      detail.body.track.comments.map((
        c: { at_s: number; shared: boolean; text: string },
      ) => [c.at_s, c.shared, c.text]),
    ).toEqual([[20, true, SHARED], [30, false, STAFF_ONLY]]);

    // The artist at phone width: one marker at 0:20, the label's signature, no staff-only text.
    const phone = await signIn(t, artist.username, { width: 390, height: 844 });
    await phone.goto(`${t.server.baseUrl}/profile`);
    const player = phone.getByTestId("comment-player");
    await player.waitFor();
    await phone.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>(".comment-wave-canvas");
      return Boolean(document.querySelector("[data-testid=comment-player] audio")?.getAttribute("src")) && c &&
        c.width > 0;
    });
    const artistMarkers = await player.locator(".comment-marker").evaluateAll((els) =>
      els.map((e) => Number((e as HTMLElement).dataset.at))
    );
    expect(artistMarkers).toEqual([20]);
    const text = await phone.locator("main").innerText();
    expect(text).toContain(SHARED);
    expect(text).toContain("Команда лейбла");
    expect(text).not.toContain(STAFF_ONLY);
    expect(text).not.toContain("moderator");
    const history = await apiAs(t, artist.access, "/tracks/history");
    expect(JSON.stringify(history.body)).not.toContain(STAFF_ONLY);

    await phone.evaluate(() => {
      document.querySelector<HTMLAudioElement>("[data-testid=comment-player] audio")!.muted = true;
    });
    await player.locator(".comment-marker").click();
    await phone.waitForFunction(() => {
      const a = document.querySelector<HTMLAudioElement>("[data-testid=comment-player] audio");
      return a && !a.paused && a.currentTime >= 20 && a.currentTime < 25;
    });
    await player.getByRole("button", { name: "Пауза" }).click();
    // The history is what the screenshot is about; at the top the sticky header stays out of it.
    await phone.evaluate(() => scrollTo(0, 0));
    await t.screenshot(phone, "comments-artist-history-390");
    expect(await audit(phone, "artist's history with a shared comment @390")).toEqual([]);
  },
  { timeout: 180_000 },
);
