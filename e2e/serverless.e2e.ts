/**
 * Issue 14, "Done when": two server processes share one database file, an Upstash bridge over a real
 * redis-server and an S3 server (s3rver), as instances on a serverless host share Turso, Upstash and
 * R2. An artist uploads through instance A in Chromium; a moderator lists, listens to and downloads
 * the track through instance B, byte for byte. Then instance A is killed with SIGKILL while it
 * processes a second track, and B completes that track once A's lease has run out.
 *
 * A runs `server/testing/slow-processing-server.ts` (the real server with its storage reads slowed,
 * a test-only entry that production never runs, docs/decisions/0178), so its processing takes
 * seconds and the kill lands in the middle of it. Everything this test uses it starts and stops
 * itself; without redis-server or s3rver it fails rather than passing unseen.
 */
import { eq } from "drizzle-orm";
import { openDb } from "../db/client.ts";
import { tracks } from "../db/schema.ts";
import { startRedisServer } from "../server/testing/redis-server.ts";
import { startS3Server } from "../server/testing/s3-server.ts";
import { RespConnection, startUpstashBridge } from "../server/testing/upstash-bridge.ts";
import { expect, type ExtraServer, test, type TestContext } from "./harness.ts";
import { type BodyLimitProxy, startBodyLimitProxy } from "./body-limit-proxy.ts";
import {
  apiAs,
  FIXTURES,
  newUser,
  runArtist,
  signIn,
  tokensOf,
  uniqueMp3,
  uploadAs,
  waitPlaying,
  watchDownloads,
  WIDE,
} from "./staff-kit.ts";

/** Seconds a claimed job stays its instance's; short, so the takeover is seen within the test. */
const LEASE_S = 3;
/** A's storage reads, bytes a second: the 8 s fixture (~330 KB) then takes about 5 s to process. */
const SLOW_READ_BYTES_PER_S = 64 * 1024;

/** The test context with `server` pointing at one instance (the staff-kit helpers go through it). */
const on = (t: TestContext, server: ExtraServer): TestContext => ({ ...t, server });

test(
  "two instances: upload on A, a moderator reviews on B, A killed mid-processing and B finishes the track",
  async (t) => {
    const redis = await startRedisServer();
    const bridge = startUpstashBridge({ redisPort: redis.port });
    const s3 = await startS3Server({ bucket: "np-e2e-two-instances" });
    const dbDir = await Deno.makeTempDir({ prefix: "np-e2e-shared-db-" });
    let front: BodyLimitProxy | undefined;
    const databaseUrl = `file:${dbDir}/app.db`;
    try {
      const sharedEnv = {
        DATABASE_URL: databaseUrl,
        // One signing key for every instance: a session started on A is valid on B.
        JWT_SECRET: `two-instances-${crypto.randomUUID()}`,
        UPSTASH_REDIS_REST_URL: bridge.url,
        UPSTASH_REDIS_REST_TOKEN: bridge.token,
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        PROCESSING_LEASE_S: String(LEASE_S),
        LOG_LEVEL: "info",
      };
      // A sits behind a front proxy that refuses bodies over 32 MiB, as Cloud Run does over HTTP/1
      // (issue 26): the artist's page reaches A only through it, and the file's parts go to the bucket.
      front = startBodyLimitProxy({ maxBodyBytes: 32 * 1024 * 1024 });
      const a = await t.startServer(
        { ...sharedEnv, PUBLIC_URL: front.url, TEST_SLOW_READ_BYTES_PER_S: String(SLOW_READ_BYTES_PER_S) },
        { entry: "server/testing/slow-processing-server.ts" },
      );
      front.target = a.baseUrl;
      const b = await t.startServer(sharedEnv);
      const onA = on(t, a);
      const onB = on(t, b);

      // --- The artist uploads through A, in the browser.
      const artist = await newUser(onA, "Twin");
      const page = await t.page(WIDE);
      await page.goto(artist.link);
      await page.getByText("Авторизация успешно завершена!").waitFor();
      await page.waitForURL((url) => !url.search.includes("access_token"));
      const filename = `${runArtist("Twin")} - Two Rooms.mp3`;
      const bytes = uniqueMp3(await Deno.readFile(new URL("Test Artist - Amen Study.mp3", FIXTURES)), "two-rooms");
      const tmp = await Deno.makeTempDir({ prefix: "np-e2e-two-" });
      await Deno.writeFile(`${tmp}/${filename}`, bytes);
      await page.getByTestId("file-input").setInputFiles(`${tmp}/${filename}`);
      await page.getByTestId("file-row").first().waitFor();
      await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
      await page.getByRole("radio", { name: "Нет", exact: true }).check();
      await page.getByRole("button", { name: "Загрузить трек" }).click();
      await page.getByRole("button", { name: "Успешно загружено!" }).waitFor({ timeout: 30_000 });
      await page.waitForURL(`${front.url}/processing`);
      await page.getByTestId("track-status").filter({ hasText: filename }).getByText("Завершено").waitFor({
        timeout: 60_000,
      });
      await Deno.remove(tmp, { recursive: true });
      const mine = (await apiAs(onA, artist.access, "/tracks")).body.tracks as { id: number; filename: string }[];
      const uploaded = mine.find((row) => row.filename === filename);
      expect(uploaded, JSON.stringify(mine)).toBeDefined();
      const trackId = uploaded!.id;
      // The upload went through the front proxy as resumable calls, none refused, and no audio byte
      // passed it: the parts went straight to the bucket.
      expect(front.refused).toEqual([]);
      expect(front.passed.some((r) => /^\/api\/upload\/resumable\/[^/]+\/complete$/.test(r.path))).toBe(true);
      expect(front.partsAccepted()).toEqual([]);

      // --- The moderator lists, listens to and downloads it through B.
      const moderator = await signIn(onB, "moderator");
      const { all: downloads, first: firstDownload } = watchDownloads(moderator);
      const listened: number[] = [];
      moderator.on("response", (r) => {
        if (new URL(r.url()).pathname.startsWith("/api/listen/")) listened.push(r.status());
      });
      await moderator.goto(`${b.baseUrl}/moderator/tracks`);
      await moderator.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
      await moderator.getByLabel("Track name").fill(filename.split(" - ")[0]);
      await moderator.waitForFunction(() => document.querySelectorAll("tbody tr[data-track-id]").length === 1);
      const row = moderator.locator(`tr[data-track-id="${trackId}"]`);
      await row.waitFor();
      await row.getByRole("button", { name: `Play: ${filename}` }).click();
      await waitPlaying(moderator, trackId);
      expect(listened.length).toBeGreaterThan(0);
      expect(listened.every((s) => s === 200 || s === 206)).toBe(true);
      await t.screenshot(moderator, "two-instances-moderator-on-b-1440");
      await row.getByRole("button", { name: `Download: ${filename}` }).click();
      await firstDownload;
      expect(downloads.length).toBe(1);
      expect(new URL(downloads[0].url()).origin).toBe(b.baseUrl);
      const got = await Deno.readFile((await downloads[0].path())!);
      expect(got.length).toBe(bytes.length);
      expect(got.every((byte, i) => byte === bytes[i])).toBe(true);

      // --- A is killed in the middle of processing; B takes the track over once the lease has run out.
      const db = await openDb({ url: databaseUrl });
      try {
        const state = async (id: number) => (await db.select().from(tracks).where(eq(tracks.id, id)))[0];
        const ofA = `${a.pid}-`;
        // A claims what it received at once, but B's sweep may get there first; such a track is simply
        // B's, and another upload is tried (the test needs one that A holds).
        let held: { id: number; bytes: Uint8Array } | undefined;
        for (let tries = 0; tries < 3 && !held; tries++) {
          const [upload] = await uploadAs(onA, artist.access, [{
            name: `${runArtist("Killed")} - Half Done.mp3`,
            source: "Test Artist - Amen Study.mp3",
          }], "label_koster");
          let row = await state(upload.id);
          // The holder counts its attempt in the row before it reads the file.
          for (let i = 0; i < 300 && row.status === "processing" && !(row.lease_owner && row.attempts > 0); i++) {
            await new Promise((r) => setTimeout(r, 50));
            row = await state(upload.id);
          }
          if (row.status === "processing" && row.lease_owner?.startsWith(ofA)) held = upload;
          else {console.log(
              `    track ${upload.id} was not A's to process (${row.status}, ${row.lease_owner}); another upload`,
            );}
        }
        expect(held, "A never held the lease of a track it received").toBeDefined();
        await a.crash();
        const killedAt = Date.now();
        const left = await state(held!.id);
        expect(left.status, "A finished before it was killed: the kill was not mid-processing").toBe("processing");
        expect(left.lease_owner?.startsWith(ofA)).toBe(true);
        expect(left.attempts).toBe(1);
        const leaseOfA = left.lease_until!.getTime();

        // Bounded waits, not timing assertions: the lease's end, B's idle sweep, B's processing.
        let row = left;
        let takenAt = 0;
        for (let i = 0; i < 1200 && row.status === "processing"; i++) {
          if (!takenAt && row.lease_owner && !row.lease_owner.startsWith(ofA)) takenAt = Date.now();
          await new Promise((r) => setTimeout(r, 50));
          row = await state(held!.id);
        }
        const doneAt = Date.now();
        console.log(
          `    A killed mid-processing (lease ${LEASE_S} s, held until ${
            ((leaseOfA - killedAt) / 1000).toFixed(1)
          } s after the kill); ` +
            `B took it over ${takenAt ? ((takenAt - killedAt) / 1000).toFixed(1) : "?"} s and completed it ${
              ((doneAt - killedAt) / 1000).toFixed(1)
            } s after the kill`,
        );
        expect(row.status, row.error ?? "").toBe("completed");
        // Taken again, not stolen: B claimed it only once A's lease had ended, and counted a second attempt.
        if (takenAt) expect(takenAt).toBeGreaterThanOrEqual(leaseOfA);
        expect(row.attempts).toBe(2);
        expect(row.lease_owner).toBeNull();

        // The file B processed is the one A received, served by B byte for byte.
        const admin = await tokensOf(onB, "admin");
        const link = await apiAs(onB, admin.access, `/admin/tracks/download/${held!.id}`);
        expect(link.status, JSON.stringify(link.body)).toBe(200);
        const file = new Uint8Array(await (await fetch(`${b.baseUrl}${link.body.download_url}`)).arrayBuffer());
        expect(file.length).toBe(held!.bytes.length);
        expect(file.every((byte, i) => byte === held!.bytes[i])).toBe(true);
      } finally {
        db.$client.close();
      }

      // The instances kept their shared state in the store behind the bridge, and the tracks in the
      // bucket: neither is a stand-in nobody called.
      const conn = await RespConnection.open("127.0.0.1", redis.port);
      try {
        const [keys] = await conn.send([["DBSIZE"]]);
        expect(keys).toBeGreaterThan(0);
      } finally {
        conn.close();
      }
      // s3rver lists without a signature; the tracks sit under tracks/ (decision 0111).
      const listing = await (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2&prefix=tracks/`)).text();
      expect(listing.match(/<Key>tracks\//g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    } finally {
      await front?.stop();
      await s3.stop();
      await bridge.close();
      await redis.stop();
      await Deno.remove(dbDir, { recursive: true }).catch(() => {});
    }
  },
  { timeout: 240_000 },
);
