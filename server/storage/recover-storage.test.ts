import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client.ts";
import { tracks } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser } from "../testing/factories.ts";
import { startServer } from "../testing/server-process.ts";
import { parseConfig } from "../config.ts";
import { buildDeps } from "../wiring.ts";
import { recoverStorage } from "./recover-storage.ts";

const HOUR = 60 * 60 * 1000;

async function put(dir: string, rel: string, ageMs: number) {
  const path = `${dir}/${rel}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, "x");
  const when = new Date(Date.now() - ageMs);
  await Deno.utime(path, when, when);
}

async function exists(path: string) {
  return await Deno.stat(path).then(() => true, () => false);
}

describe("start-up storage recovery", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("removes old interrupted writes and unreferenced files, and keeps everything else", async () => {
    const tracksDir = `${t.dir}/tracks`;
    const pub = `${t.ctx.staticDir}/storage`;
    const uuid = crypto.randomUUID();
    await createTrack(t.ctx.db, { storage_key: "ab/kept" });
    await createUser(t.ctx.db, { avatar: "/static/storage/avatars/kept.png" });
    await put(tracksDir, "ab/kept", 2 * HOUR);
    await put(tracksDir, "ab/orphan", 2 * HOUR);
    await put(tracksDir, `ab/cut.part-${uuid}`, 2 * HOUR);
    // Young entries may belong to an upload still in flight in another process.
    await put(tracksDir, "ab/young-orphan", 60_000);
    await put(tracksDir, `ab/young.part-${uuid}`, 60_000);
    await put(pub, "avatars/kept.png", 2 * HOUR);
    await put(pub, "avatars/orphan.png", 2 * HOUR);
    await put(pub, `avatars/cut.png.part-${uuid}`, 2 * HOUR);
    // Not the product's own folder: never swept.
    await put(pub, "other/placed-by-hand.png", 2 * HOUR);

    const report = await recoverStorage(t.ctx);
    expect(report).toEqual({ partials: 2, orphans: 2 });
    expect(await exists(`${tracksDir}/ab/kept`)).toBe(true);
    expect(await exists(`${tracksDir}/ab/orphan`)).toBe(false);
    expect(await exists(`${tracksDir}/ab/cut.part-${uuid}`)).toBe(false);
    expect(await exists(`${tracksDir}/ab/young-orphan`)).toBe(true);
    expect(await exists(`${tracksDir}/ab/young.part-${uuid}`)).toBe(true);
    expect(await exists(`${pub}/avatars/kept.png`)).toBe(true);
    expect(await exists(`${pub}/avatars/orphan.png`)).toBe(false);
    expect(await exists(`${pub}/avatars/cut.png.part-${uuid}`)).toBe(false);
    expect(await exists(`${pub}/other/placed-by-hand.png`)).toBe(true);
  });
});

describe("a server killed mid-upload", () => {
  it("leaves no track and no complete file; the next start serves, and the sweep clears the rest", async () => {
    const server = await startServer();
    const headers = await server.headers();
    const boundary = "----npcrash";
    const enc = new TextEncoder();
    let sent = 0;
    // A client that sends the directions and 2 MB of a file, then stalls: the server is killed then.
    const body = new ReadableStream<Uint8Array>({
      start(ctrl) {
        ctrl.enqueue(enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="directions"\r\n\r\nlabel_koster\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="Crash - Test.mp3"\r\n` +
            `Content-Type: audio/mpeg\r\n\r\n`,
        ));
      },
      pull(ctrl) {
        if (sent >= 2 * 1024 * 1024) return new Promise(() => {});
        sent += 64 * 1024;
        ctrl.enqueue(new Uint8Array(64 * 1024).fill(0xff));
      },
    });
    const upload = fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    }).catch((err) => err);

    const tracksDir = `${server.dataDir}/tracks`;
    const listFiles = async () => {
      const out: string[] = [];
      const walk = async (dir: string) => {
        for await (const e of Deno.readDir(dir)) {
          if (e.isDirectory) await walk(`${dir}/${e.name}`);
          else out.push(e.name);
        }
      };
      await walk(tracksDir).catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
      return out;
    };
    for (let i = 0; i < 200 && !(await listFiles()).some((n) => n.includes(".part-")); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.crash();
    await upload;

    // Only an unfinished temporary file exists; no complete file and no row.
    const files = await listFiles();
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((n) => n.includes(".part-"))).toBe(true);
    const db = await openDb({ url: `file:${server.dataDir}/app.db` });
    try {
      expect(await db.select().from(tracks)).toEqual([]);
    } finally {
      db.$client.close();
    }

    // The next start serves at once; the leftover goes once it is old enough not to be in flight.
    const again = await startServer({}, server.dataDir);
    try {
      const res = await fetch(`${again.url}/api/tracks`, { headers: await again.headers() });
      expect(res.status).toBe(200);
      expect((await res.json()).tracks).toEqual([]);
      const deps = await buildDeps(parseConfig({
        DATA_DIR: server.dataDir,
        STATIC_DIR: `${server.dataDir}/static`,
        JWT_SECRET: "crash-test-secret-crash-test-secret-0123456789",
        LOG_LEVEL: "silent",
      }));
      try {
        expect(await recoverStorage(deps, 0)).toEqual({ partials: files.length, orphans: 0 });
        expect(await listFiles()).toEqual([]);
      } finally {
        await deps.queue.close();
        deps.db.$client.close();
      }
    } finally {
      await again.stop();
    }
  }, 60_000);
});
