/**
 * Issue 12, server half: the address `/listen` answers is one a real `<audio>` element in Chromium
 * plays and seeks in (byte ranges through the real server), and listening leaves the track not
 * downloaded. The player UI itself comes later; this drives a bare Audio element on a site page.
 */
import { expect, test } from "./harness.ts";
import { apiAs, newUser, tokensOf, uploadAs, waitCompleted, WIDE } from "./staff-kit.ts";

test("Chromium's <audio> plays and seeks in a track through its listening address", async (t) => {
  const artist = await newUser(t, "Listener");
  const admin = await tokensOf(t, "admin");
  const [track] = await uploadAs(t, artist.access, [{
    name: "Listen Artist - Amen.mp3",
    source: "Test Artist - Amen Study.mp3",
  }], "label_koster");
  await waitCompleted(t, admin.access, [track.id]);

  const listen = await apiAs(t, admin.access, `/admin/tracks/${track.id}/listen`);
  expect(listen.status, JSON.stringify(listen.body)).toBe(200);
  expect(listen.body.peaks).toHaveLength(1000);

  const page = await t.page(WIDE);
  const ranges: Array<{ status: number; range: string | null }> = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname.startsWith("/api/listen/")) {
      ranges.push({ status: r.status(), range: r.request().headers()["range"] ?? null });
    }
  });
  await page.goto(t.server.baseUrl + "/faq");
  const played = await page.evaluate(async (src) => {
    const audio = new Audio();
    audio.preload = "auto";
    audio.muted = true;
    const once = (name: string) =>
      new Promise<void>((resolve, reject) => {
        audio.addEventListener(name, () => resolve(), { once: true });
        audio.addEventListener("error", () => reject(new Error(`media error ${audio.error?.code}`)), { once: true });
      });
    const meta = once("loadedmetadata");
    audio.src = src;
    await meta;
    const duration = audio.duration;
    const seeked = once("seeked");
    audio.currentTime = 6;
    await seeked;
    // Playing on from the seek: the element's own report that its time moved past it.
    const movedOn = new Promise<void>((resolve) => {
      const on = () => {
        if (audio.currentTime <= 6) return;
        audio.removeEventListener("timeupdate", on);
        resolve();
      };
      audio.addEventListener("timeupdate", on);
    });
    await audio.play();
    await movedOn;
    const at = audio.currentTime;
    audio.pause();
    return { duration, at };
  }, t.server.baseUrl + listen.body.stream_url);

  expect(Math.abs(played.duration - 8)).toBeLessThan(0.2);
  expect(played.at).toBeGreaterThanOrEqual(6);
  // The element asked for byte ranges and got partial answers.
  expect(ranges.some((r) => r.status === 206 && r.range?.startsWith("bytes="))).toBe(true);
  expect(ranges.every((r) => r.status === 200 || r.status === 206)).toBe(true);

  const after = await apiAs(t, admin.access, `/admin/tracks/${track.id}`);
  expect(after.body.track.downloaded).toBe(false);
  expect(after.body.track.analysis.bitrate_kbps).toBe(320);
});
