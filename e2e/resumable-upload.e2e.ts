/**
 * Issue 26: uploads in resumable parts. A front proxy that refuses bodies over 32 MiB (as nginx's
 * `client_max_body_size 32m` and Cloud Run's HTTP/1 limit do; `body-limit-proxy.ts`) stands in front
 * of the server, and the artist's browser reaches the site only through it.
 *   (a) A 50 MB MP3 goes through it, on local disk (its parts through the proxy to the part
 *       endpoint) and with S3 (its parts straight to the bucket, none through the proxy); the old
 *       single-request upload of the same file is refused by the proxy.
 *   (b) The connection is cut mid-way (at the site's proxy on local disk, at a proxy in front of the
 *       bucket with S3): the page says so and keeps trying, and goes on when it comes back; cut again
 *       after 3 of the 7 parts (with S3 part 4 left short in the bucket), the page is reloaded: it
 *       lists the upload before any file is picked, «Продолжить» asks only for the file, only the 4
 *       missing parts are sent, and the stored file is the original byte for byte (issue 31).
 *   (c) Screenshots at 390 px: per-file progress while sending, and «Продолжить».
 * The 50 MB file is the Amen Study fixture's MPEG frames repeated (a real, decodable MP3 of about
 * 22 minutes), made in the test.
 */
import { startS3Server } from "../server/testing/s3-server.ts";
import { audit } from "./axe-kit.ts";
import { type BodyLimitProxy, partNumber, startBodyLimitProxy } from "./body-limit-proxy.ts";
import { expect, type ExtraServer, type Page, test, type TestContext } from "./harness.ts";
import { apiAs, FIXTURES, newUser, runArtist, tokensOf, uniqueMp3, waitCompleted } from "./staff-kit.ts";

const MIB = 1024 * 1024;
const PHONE = { width: 390, height: 844 };
const PROXY_LIMIT = 32 * MIB;
/** 50 MB (under MAX_UPLOAD_FILE_MB's 50 MiB): seven parts of UPLOAD_PART_MB's default 8 MiB. */
const BIG_BYTES = 52_000_000;
const PARTS = Math.ceil(BIG_BYTES / (8 * MIB));

/** MPEG-1 Layer III bit rates (kbps) by the header's index. */
const KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const RATES = [44100, 48000, 32000];

/** The fixture's audio frames (ID3 tags and the LAME Info frame left out). */
function mpegFrames(mp3: Uint8Array): Uint8Array[] {
  let at = 0;
  if (mp3[0] === 0x49 && mp3[1] === 0x44 && mp3[2] === 0x33) {
    at = 10 + ((mp3[6] << 21) | (mp3[7] << 14) | (mp3[8] << 7) | mp3[9]);
  }
  const frames: Uint8Array[] = [];
  while (at + 4 <= mp3.length && mp3[at] === 0xff && (mp3[at + 1] & 0xfe) === 0xfa) {
    const kbps = KBPS[mp3[at + 2] >> 4];
    const rate = RATES[(mp3[at + 2] >> 2) & 3];
    const length = Math.floor((144_000 * kbps) / rate) + ((mp3[at + 2] >> 1) & 1);
    if (!kbps || !rate || at + length > mp3.length) break;
    const frame = mp3.subarray(at, at + length);
    const tag = new TextDecoder().decode(frame.subarray(36, 40));
    if (!(frames.length === 0 && (tag === "Info" || tag === "Xing"))) frames.push(frame);
    at += length;
  }
  if (frames.length < 100) throw new Error(`the fixture gave only ${frames.length} frames`);
  return frames;
}

/** A real MP3 of about `size` bytes: the fixture's frames over and over, with a unique ID3v1 tag. */
async function bigMp3(size: number, tag: string): Promise<Uint8Array<ArrayBuffer>> {
  const frames = mpegFrames(await Deno.readFile(new URL("Test Artist - Amen Study.mp3", FIXTURES)));
  const out = new Uint8Array(size - 128);
  let at = 0;
  for (let i = 0;; i = (i + 1) % frames.length) {
    if (at + frames[i].length > out.length) break;
    out.set(frames[i], at);
    at += frames[i].length;
  }
  // The space a whole frame did not fill is zeros: decoders skip it to the tag.
  return uniqueMp3(out, tag);
}

interface Site {
  server: ExtraServer;
  proxy: BodyLimitProxy;
  on: TestContext;
}

/** A server with the proxy in front: PUBLIC_URL (and so every sign-in link) is the proxy's address. */
async function siteBehindProxy(t: TestContext, env: Record<string, string> = {}): Promise<Site> {
  const proxy = startBodyLimitProxy({ maxBodyBytes: PROXY_LIMIT });
  const server = await t.startServer({ PUBLIC_URL: proxy.url, ...env });
  proxy.target = server.baseUrl;
  return { server, proxy, on: { ...t, server } };
}

async function artistPage(t: TestContext, site: Site, prefix: string): Promise<{ page: Page; access: string }> {
  const artist = await newUser(site.on, prefix);
  expect(new URL(artist.link).origin).toBe(site.proxy.url);
  const page = await t.page(PHONE);
  // The cookie notice would cover the lower part of the screenshots.
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "true"));
  await page.goto(artist.link);
  await page.getByText("Авторизация успешно завершена!").waitFor();
  await page.waitForURL((url) => !url.search.includes("access_token"));
  return { page, access: artist.access };
}

async function writeTemp(name: string, bytes: Uint8Array): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "np-e2e-resumable-" });
  await Deno.writeFile(`${dir}/${name}`, bytes);
  return { path: `${dir}/${name}`, dir };
}

/** The stored file, through the admin's download link, compared byte for byte. */
async function expectStored(site: Site, trackId: number, bytes: Uint8Array) {
  const admin = await tokensOf(site.on, "admin");
  await waitCompleted(site.on, admin.access, [trackId]);
  const link = await apiAs(site.on, admin.access, `/admin/tracks/download/${trackId}`);
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const got = new Uint8Array(await (await fetch(`${site.server.baseUrl}${link.body.download_url}`)).arrayBuffer());
  expect(got.length).toBe(bytes.length);
  expect(got.every((b, i) => b === bytes[i])).toBe(true);
}

async function myTrack(site: Site, access: string, filename: string): Promise<number> {
  const mine = (await apiAs(site.on, access, "/tracks")).body.tracks as { id: number; filename: string }[];
  const row = mine.find((r) => r.filename === filename);
  expect(row, JSON.stringify(mine)).toBeDefined();
  return row!.id;
}

/** Picks the file, one direction, sends it; returns once the page is on /processing. */
async function sendThroughPage(t: TestContext, page: Page, site: Site, path: string, filename: string, shot?: string) {
  await page.getByTestId("file-input").setInputFiles(path);
  await page.getByTestId("file-row").filter({ hasText: filename }).waitFor();
  await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
  await page.getByRole("radio", { name: "Нет", exact: true }).check();
  await page.getByRole("button", { name: "Загрузить трек" }).click();
  if (shot) {
    // Per-file progress part-way through (c).
    await page.waitForFunction(
      () => {
        const bar = document.querySelector("[role='progressbar']");
        const now = Number(bar?.getAttribute("aria-valuenow") ?? 0);
        return now >= 20 && now < 100;
      },
      undefined,
      { timeout: 120_000 },
    );
    // The sticky header would sit where the page was scrolled to in a full-page picture.
    await page.evaluate(() => scrollTo(0, 0));
    await t.screenshot(page, shot);
  }
  await page.getByRole("button", { name: "Успешно загружено!" }).waitFor({ timeout: 180_000 });
  await page.waitForURL(`${site.proxy.url}/processing`);
}

test("(a) local disk: a 50 MB MP3 goes through a proxy that refuses bodies over 32 MiB, in 8 MiB parts", async (t) => {
  const site = await siteBehindProxy(t);
  try {
    const { page, access } = await artistPage(t, site, "Proxied");
    const filename = `${runArtist("Proxied")} - Fifty Megabytes.mp3`;
    const bytes = await bigMp3(BIG_BYTES, "proxied-local");
    const file = await writeTemp(filename, bytes);

    // The proxy is real: the old single request with the whole file never reaches the server.
    const form = new FormData();
    form.append("files", new File([bytes], filename, { type: "audio/mpeg" }));
    form.append("directions", "label_koster");
    const old = await fetch(`${site.proxy.url}/api/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${access}` },
      body: form,
    });
    await old.body?.cancel();
    expect(old.status).toBe(413);
    expect(site.proxy.refused.map((r) => r.path)).toEqual(["/api/upload"]);

    await sendThroughPage(t, page, site, file.path, filename, "resumable-upload-progress-390");
    expect(site.proxy.partsAccepted()).toEqual(Array.from({ length: PARTS }, (_, i) => i + 1));
    expect(Math.max(...site.proxy.passed.map((r) => r.bytes))).toBeLessThanOrEqual(8 * MIB);
    expect(site.proxy.refused).toHaveLength(1);
    await expectStored(site, await myTrack(site, access, filename), bytes);
    await Deno.remove(file.dir, { recursive: true });
  } finally {
    await site.proxy.stop();
  }
}, { timeout: 300_000 });

test(
  "(a) S3: a 50 MB MP3 behind the same proxy goes straight to the bucket; the server sees none of its bytes",
  async (t) => {
    const s3 = await startS3Server({ bucket: "np-e2e-resumable" });
    const site = await siteBehindProxy(t, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      const { page, access } = await artistPage(t, site, "Bucketed");
      const filename = `${runArtist("Bucketed")} - Fifty Megabytes.mp3`;
      const bytes = await bigMp3(BIG_BYTES, "proxied-s3");
      const file = await writeTemp(filename, bytes);
      const bucketPuts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "PUT" && r.url().startsWith(s3.endpoint)) {
          bucketPuts.push(new URL(r.url()).searchParams.get("partNumber")!);
        }
      });
      await sendThroughPage(t, page, site, file.path, filename);
      expect(bucketPuts.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: PARTS }, (_, i) => i + 1));
      // Only calls of a few hundred bytes went through the proxy to the server.
      expect(site.proxy.partsAccepted()).toEqual([]);
      expect(Math.max(...site.proxy.passed.map((r) => r.bytes))).toBeLessThan(64 * 1024);
      expect(site.proxy.refused).toEqual([]);
      await expectStored(site, await myTrack(site, access, filename), bytes);
      await Deno.remove(file.dir, { recursive: true });
    } finally {
      await site.proxy.stop();
      await s3.stop();
    }
  },
  { timeout: 300_000 },
);

/** The page's words while parts do not go through (client/lib/upload/resumable-upload.ts). */
const STALLED = "Связь прервалась. Пробуем снова: загрузка продолжится сама, когда связь вернётся.";

/**
 * Resolves once `ready()` holds, checked each time the test's own proxy records a request (its
 * event, not a polling pause); fails after `timeoutMs` naming `what`.
 */
async function until(proxy: BodyLimitProxy, ready: () => boolean, what: string, timeoutMs = 120_000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  try {
    while (!ready()) await Promise.race([proxy.changed(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * (b), issue 31: `parts` is the proxy the parts pass (the site's, or the bucket's). After two parts
 * the connection goes: the page says so and keeps trying; it comes back (the browser's `online`
 * event) and the page goes on by itself. After the third part it goes again, for good (with
 * `shortPart`, the first try of part 4 leaves 1 MiB of it in the store). The page is reloaded: it
 * lists the upload (name, size, share, direction) before any file is picked; «Продолжить» asks for
 * the file alone, and only the missing parts are sent.
 */
async function cutReloadResume(
  t: TestContext,
  site: Site,
  parts: BodyLimitProxy,
  prefix: string,
  opts: { shot?: string; shortPart?: boolean } = {},
) {
  const { page, access } = await artistPage(t, site, prefix);
  const filename = `${runArtist(prefix)} - Cut Connection.mp3`;
  const bytes = await bigMp3(BIG_BYTES, prefix);
  const file = await writeTemp(filename, bytes);

  let cutAfter = 2;
  const isPart = (r: { method: string; path: string; search: string }) => r.method === "PUT" && partNumber(r) > 0;
  parts.drop = (r) => isPart(r) && parts.partsAccepted().length >= cutAfter;
  if (opts.shortPart) {
    parts.truncate = (r) =>
      isPart(r) && partNumber(r) === 4 && parts.truncated.length === 0 && parts.partsAccepted().length === 3
        ? MIB
        : null;
  }
  await page.getByTestId("file-input").setInputFiles(file.path);
  await page.getByTestId("file-row").filter({ hasText: filename }).waitFor();
  await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
  await page.getByRole("radio", { name: "Нет", exact: true }).check();
  await page.getByRole("button", { name: "Загрузить трек" }).click();

  // Parts stop going through: the page says so, and keeps trying.
  const stalled = page.getByRole("status").filter({ hasText: STALLED });
  await stalled.waitFor({ timeout: 120_000 });
  await until(parts, () => parts.dropped.length >= 2, "a second try of part 3");
  expect(parts.dropped.every((r) => partNumber(r) === 3)).toBe(true);
  // The connection comes back: the page tries at once (its wait was up to 30 s) and says no more.
  cutAfter = 3;
  await page.evaluate(() => dispatchEvent(new Event("online")));
  await until(parts, () => parts.partsAccepted().length === 3, "part 3 after the connection came back", 20_000);

  // Gone again: part 4 is cut (its first try left short in the store with `shortPart`) and tried again.
  await stalled.waitFor({ timeout: 120_000 });
  await until(parts, () => parts.dropped.some((r) => partNumber(r) === 4), "a try of part 4 cut");
  expect(parts.partsAccepted()).toEqual([1, 2, 3]);
  if (opts.shortPart) {
    // The bucket took the 1 MiB that reached it as part 4.
    expect(parts.truncated.map((r) => [partNumber(r), r.sent, r.status])).toEqual([[4, MIB, 200]]);
  }

  // The reload ends the page's tries; only then does the connection come back.
  await page.reload();
  await page.getByTestId("file-input").waitFor({ state: "attached" });
  cutAfter = Infinity;
  parts.truncate = () => null;
  const listed = page.getByTestId("unfinished-upload").filter({ hasText: filename });
  await listed.waitFor();
  // Listed before any file is picked, with its size, the share sent and its direction.
  expect(await page.getByTestId("file-row").count()).toBe(0);
  const share = String(Math.floor(((3 * 8 * MIB) / bytes.length) * 100));
  expect(await listed.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(share);
  expect(await listed.textContent()).toContain(`52 МБ · отправлено ${share}% · Лейбл Костёр`);
  await listed.getByRole("button", { name: `Отменить: ${filename}` }).waitFor();
  if (opts.shot) {
    expect(await audit(page, "the upload page listing an unfinished upload at 390")).toEqual([]);
    await page.evaluate(() => scrollTo(0, 0));
    await t.screenshot(page, opts.shot);
  }

  // «Продолжить» asks for the file, and nothing else: no direction, no AI answer.
  const chooser = page.waitForEvent("filechooser");
  await listed.getByRole("button", { name: `Продолжить: ${filename}` }).click();
  await (await chooser).setFiles(file.path);
  await page.getByRole("button", { name: "Успешно загружено!" }).waitFor({ timeout: 180_000 });
  await page.waitForURL(`${site.proxy.url}/processing`);
  // Only the four missing parts were sent after the reload (part 4 whole, in place of the short one).
  expect(parts.partsAccepted()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  // One start: the upload went on, it did not begin again.
  expect(site.proxy.passed.filter((r) => r.method === "POST" && r.path === "/api/upload/resumable")).toHaveLength(1);
  expect(await page.evaluate(() => localStorage.getItem("resumableUploads"))).toBeNull();
  await expectStored(site, await myTrack(site, access, filename), bytes);
  await Deno.remove(file.dir, { recursive: true });
}

test(
  "(b) local disk: cut mid-way, said and retried; after a reload the upload is listed, «Продолжить» takes the file alone and sends only the 4 missing parts",
  async (t) => {
    const site = await siteBehindProxy(t);
    try {
      await cutReloadResume(t, site, site.proxy, "Resumed", { shot: "resumable-upload-continue-390" });
    } finally {
      await site.proxy.stop();
    }
  },
  { timeout: 300_000 },
);

test(
  "(b) S3: cut at the bucket, part 4 left short there; after a reload «Продолжить» sends part 4 whole and the rest, nothing else",
  async (t) => {
    const s3 = await startS3Server({ bucket: "np-e2e-resumed" });
    // The bucket is reached through a proxy of its own, where the parts are counted and cut.
    const bucket = startBodyLimitProxy({ maxBodyBytes: PROXY_LIMIT });
    bucket.target = s3.endpoint;
    const site = await siteBehindProxy(t, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: bucket.url,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      await cutReloadResume(t, site, bucket, "Rebucketed", { shortPart: true });
      expect(site.proxy.partsAccepted()).toEqual([]);
    } finally {
      await site.proxy.stop();
      await bucket.stop();
      await s3.stop();
    }
  },
  { timeout: 300_000 },
);
