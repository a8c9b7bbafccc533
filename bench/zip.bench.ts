/**
 * ZIP downloads stream with flat memory: the real server runs as a subprocess on a temporary
 * DATA_DIR holding 100 tracks of about 1.9 MB each; an admin asks for a download link of all of
 * them and the archive is read to the end. The server's peak resident memory (VmHWM in
 * /proc/<pid>/status) is compared before and after. Target: growth ≤ 64 MB for 100 tracks, and
 * about the same growth for 10 tracks as for 100.
 */
import { migrateDb, openDb } from "../db/client.ts";
import { tracks, users } from "../db/schema.ts";
import { createTokenService } from "../server/auth/tokens.ts";

const TRACKS = 100;
const COPIES = 6; // fixture repeated: ~1.9 MB per track, ~190 MB per archive
const TARGET_MB = 64;
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const FIXTURE = new URL("../test/fixtures/audio/Test Artist - Amen Study.mp3", import.meta.url);

function memory(pid: number) {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { hwmMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

async function waitFor(url: string, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url}`);
}

/**
 * Walks the archive as it streams in and compares every stored byte of every entry with the source
 * file (all entries hold the same bytes here), so a fast download is also a correct one.
 * Local header (30 bytes + name), data, data descriptor (16 bytes, no ZIP64 at these sizes).
 */
function zipChecker(source: Uint8Array, entries: number) {
  let state: "header" | "data" | "descriptor" | "rest" = "header";
  let need = 30;
  let header = new Uint8Array(0);
  let pos = 0;
  let seen = 0;
  return {
    feed(chunk: Uint8Array) {
      let i = 0;
      while (i < chunk.length && state !== "rest") {
        if (state === "header") {
          const take = Math.min(need - header.length, chunk.length - i);
          const next = new Uint8Array(header.length + take);
          next.set(header);
          next.set(chunk.subarray(i, i + take), header.length);
          header = next;
          i += take;
          if (header.length === 30) {
            const view = new DataView(header.buffer);
            if (view.getUint32(0, true) !== 0x04034b50) throw new Error(`entry ${seen}: bad local header`);
            if (view.getUint16(8, true) !== 0) throw new Error(`entry ${seen}: compressed, expected stored`);
            need = 30 + view.getUint16(26, true) + view.getUint16(28, true);
          }
          if (header.length === need) {
            state = "data";
            pos = 0;
          }
        } else if (state === "data") {
          const take = Math.min(source.length - pos, chunk.length - i);
          for (let k = 0; k < take; k++) {
            if (chunk[i + k] !== source[pos + k]) throw new Error(`entry ${seen}: byte ${pos + k} differs`);
          }
          pos += take;
          i += take;
          if (pos === source.length) {
            state = "descriptor";
            need = 16;
          }
        } else {
          const take = Math.min(need, chunk.length - i);
          need -= take;
          i += take;
          if (need === 0) {
            seen++;
            header = new Uint8Array(0);
            need = 30;
            state = seen === entries ? "rest" : "header";
          }
        }
      }
    },
    get entries() {
      return seen;
    },
  };
}

async function download(base: string, headers: Record<string, string>, ids: number[], source: Uint8Array) {
  const link = await fetch(`${base}/api/admin/tracks/download`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ track_ids: ids }),
  });
  const { download_url } = await link.json();
  const started = performance.now();
  const res = await fetch(`${base}${download_url}?access_token=ignored`);
  if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
  let bytes = 0;
  const check = zipChecker(source, ids.length);
  for await (const chunk of res.body!) {
    bytes += chunk.byteLength;
    check.feed(chunk);
  }
  const seconds = (performance.now() - started) / 1000;
  if (check.entries !== ids.length) throw new Error(`${check.entries} of ${ids.length} entries arrived intact`);
  const declared = Number(res.headers.get("content-length"));
  if (declared !== bytes) throw new Error(`Content-Length ${declared} but ${bytes} bytes arrived`);
  return { bytes, seconds };
}

export default async function run() {
  const dir = await Deno.makeTempDir({ prefix: "np-zip-bench-" });
  const port = 20000 + Math.floor(Math.random() * 40000);
  let child: Deno.ChildProcess | undefined;
  try {
    // One real file of ~1.9 MB, hard-linked under 100 storage keys: the server reads 100 files,
    // the disk holds one.
    const one = await Deno.readFile(FIXTURE);
    const big = new Uint8Array(one.length * COPIES);
    for (let i = 0; i < COPIES; i++) big.set(one, i * one.length);
    await Deno.mkdir(`${dir}/tracks/tracks`, { recursive: true });
    await Deno.writeFile(`${dir}/source.mp3`, big);

    const db = await openDb({ url: `file:${dir}/app.db` });
    await migrateDb(db);
    const [admin] = await db.insert(users).values({ username: "bench_admin", is_admin: true }).returning();
    const ids: number[] = [];
    for (let i = 0; i < TRACKS; i++) {
      const key = `tracks/${crypto.randomUUID()}.mp3`;
      await Deno.link(`${dir}/source.mp3`, `${dir}/tracks/${key}`);
      const [t] = await db.insert(tracks).values({
        filename: `Bench Artist - Track ${String(i).padStart(3, "0")}.mp3`,
        directions: "label_neuropunk",
        upload_date: new Date(),
        status: "completed",
        storage_key: key,
        size: big.length,
      }).returning({ id: tracks.id });
      ids.push(t.id);
    }
    const tokens = createTokenService({
      db,
      secret: SECRET,
      accessTtlS: 3600,
      refreshTtlS: 3600,
      now: () => new Date(),
    });
    const { access_token } = await tokens.issue(admin.id);
    db.$client.close();
    const headers = { Authorization: `Bearer ${access_token}` };

    child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../server/main.ts", import.meta.url).pathname],
      env: {
        PORT: String(port),
        DATA_DIR: dir,
        STATIC_DIR: `${dir}/static`,
        CLIENT_DIST_DIR: `${dir}/dist`,
        JWT_SECRET: SECRET,
        LOG_LEVEL: "warn",
      },
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`);

    // Warm-up: the same code paths once on a small archive.
    await download(base, headers, ids.slice(0, 2), big);
    const before = memory(child.pid);
    const ten = await download(base, headers, ids.slice(0, 10), big);
    const afterTen = memory(child.pid);
    const all = await download(base, headers, ids, big);
    const after = memory(child.pid);

    const growth10 = afterTen.hwmMb - before.hwmMb;
    const growth100 = after.hwmMb - before.hwmMb;
    return {
      tracks: TRACKS,
      track_mb: +(big.length / 2 ** 20).toFixed(2),
      archive_mb: +(all.bytes / 2 ** 20).toFixed(1),
      seconds: +all.seconds.toFixed(2),
      throughput_mb_s: +((all.bytes / 2 ** 20) / all.seconds).toFixed(0),
      server_rss_before_mb: +before.rssMb.toFixed(1),
      server_peak_before_mb: +before.hwmMb.toFixed(1),
      server_peak_growth_10_tracks_mb: +growth10.toFixed(1),
      server_peak_growth_100_tracks_mb: +growth100.toFixed(1),
      server_peak_after_mb: +after.hwmMb.toFixed(1),
      archive_10_tracks_mb: +(ten.bytes / 2 ** 20).toFixed(1),
      every_entry_checked_byte_for_byte: true,
      target_growth_mb: TARGET_MB,
      pass: growth100 <= TARGET_MB,
    };
  } finally {
    if (child) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
