import { gte } from "drizzle-orm";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIRECTION_CONFLICT_MESSAGE } from "../../domain/directions.ts";
import { tracks } from "../../db/schema.ts";
import { KV_KEYS } from "../status-store/kv.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { multipartBody, type Part, repeatingStream } from "../testing/multipart-body.ts";
import { ABORTED_MESSAGE, MALFORMED_MESSAGE } from "./receive-upload.ts";
import { DIRECTION_PAIRS, INVALID_NAMES, specConflict, VALID_NAMES } from "../testing/rule-cases.ts";
import { allTracks, dirPart, filePart, fixture, FIXTURES, postUpload, storedFiles } from "../testing/upload-helpers.ts";

let t: TestApp;
let headers: Record<string, string>;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.ctx.queue.idle();
  await t.ctx.db.delete(tracks).where(gte(tracks.id, 0));
  await Deno.remove(`${t.dir}/tracks`, { recursive: true }).catch(() => {});
  const user = await createUser(t.ctx.db);
  userId = user.id;
  headers = (await signIn(t.ctx, user)).headers;
});

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function expectNothingKept() {
  await t.ctx.queue.idle();
  expect(await allTracks(t)).toEqual([]);
  expect(await storedFiles(t)).toEqual([]);
}

/** The first frame header of the 128 kbps fixture, for building long MPEG streams. */
function mpegFrames(): Uint8Array {
  const data = fixture(FIXTURES.low);
  // The 128 kbps fixture has no tags: every 417/418-byte frame stands alone, so a repeated run of
  // whole frames (skipping the Info frame) is a valid, longer MP3.
  const frameLen = (i: number) => {
    const padding = (data[i + 2] >> 1) & 1;
    return Math.floor((144 * 128000) / 44100) + padding;
  };
  let pos = frameLen(0); // skip the Info frame
  const start = pos;
  for (let n = 0; n < 100; n++) pos += frameLen(pos);
  return data.subarray(start, pos);
}

describe("POST /api/upload: every fixture to its end state", () => {
  it("accepts all the fixtures in one request and processes each to the expected state", async () => {
    const names = Object.values(FIXTURES);
    const { res, body } = await postUpload(t, headers, [
      ...names.map((n) => filePart(n, fixture(n))),
      dirPart("label_neuropunk"),
      dirPart("podcast_neuropunk"),
    ]);
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.track_ids).toHaveLength(names.length);

    // The upload answers before processing: every track starts as `processing`.
    const before = await allTracks(t);
    expect(before.every((r) => r.status === "processing" || r.attempts > 0)).toBe(true);

    await t.ctx.queue.idle();
    const rows = await allTracks(t);
    const by = Object.fromEntries(rows.map((r) => [r.filename, r]));
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(body.track_ids);

    for (const r of rows) {
      expect(r.user_id).toBe(userId);
      expect(r.directions).toBe("label_neuropunk,podcast_neuropunk");
      expect(r.size).toBe(fixture(r.filename).byteLength);
      expect(r.checksum).toBe(sha256(fixture(r.filename)));
      expect(r.processed_at).not.toBeNull();
    }

    const amen = by[FIXTURES.amen];
    expect(amen).toMatchObject({
      status: "completed",
      error: null,
      bitrate: 320000,
      sample_rate: 44100,
      channels: 2,
      id3_artist: "Test Artist",
      id3_title: "Amen Study",
    });
    expect(amen.duration).toBeGreaterThan(7900);
    expect(amen.duration).toBeLessThan(8100);

    expect(by[FIXTURES.low]).toMatchObject({ status: "completed", bitrate: 128000, id3_artist: null });
    expect(by[FIXTURES.vbr].status).toBe("completed");
    expect(by[FIXTURES.vbr].duration).toBeGreaterThan(7900);
    expect(by[FIXTURES.vbr].duration).toBeLessThan(8100);
    expect(by[FIXTURES.mono]).toMatchObject({ status: "completed", sample_rate: 48000, channels: 1 });
    expect(by[FIXTURES.mono].duration).toBeGreaterThan(4900);
    expect(by[FIXTURES.mono].duration).toBeLessThan(5100);

    // The first 20,000 bytes of the 320 kbps file: 17 whole frames (0.444 s), not the header's 8 s.
    expect(by[FIXTURES.cut]).toMatchObject({ status: "completed", duration: 444 });

    for (const name of [FIXTURES.wave, FIXTURES.text]) {
      expect(by[name].status).toBe("failed");
      expect(by[name].error).toMatch(/^Файл не является аудио в формате MP3/);
      // Not audio: the file is not kept.
      expect(by[name].storage_key).toBeNull();
    }
    expect(by[FIXTURES.wave].error).toContain("WAVE");

    // Only the accepted files stay in storage, byte for byte as sent, under generated keys.
    const kept = rows.filter((r) => r.status === "completed");
    expect((await storedFiles(t)).length).toBe(kept.length);
    for (const r of kept) {
      expect(r.storage_key).toMatch(/^[0-9a-f]{2}\/[0-9a-f-]{36}$/);
      expect(sha256(Deno.readFileSync(`${t.dir}/tracks/${r.storage_key}`))).toBe(r.checksum);
    }

    // The pages' calls tell the same story.
    for (const r of rows) {
      const s = await (await t.app.request(`/api/status/${r.id}`, { headers })).json();
      expect(s.status).toBe(r.status);
      expect(s.error).toBe(r.error);
      expect(s.track_data.filename).toBe(r.filename);
    }
    const errors = (await (await t.app.request("/api/errors", { headers })).json()).errors;
    expect(errors).toEqual([
      `${FIXTURES.wave}: ${by[FIXTURES.wave].error}`,
      `${FIXTURES.text}: ${by[FIXTURES.text].error}`,
    ]);
    const success = (await (await t.app.request("/api/success", { headers })).json()).success;
    expect(success).toBe("Успешно загружено и проверено треков: 5 из 7.");
  });

  it("sets the status keys at once and follows them to the end", async () => {
    const { body } = await postUpload(t, headers, [filePart(FIXTURES.amen), dirPart("label_koster")]);
    const [id] = body.track_ids;
    expect(await t.ctx.kv.get(KV_KEYS.trackIds(userId))).toEqual([id]);
    expect(await t.ctx.kv.get(KV_KEYS.trackStatus(id))).toMatchObject({
      status: "processing",
      filename: FIXTURES.amen,
    });
    expect(await t.ctx.kv.ttl(KV_KEYS.trackStatus(id))).toBeGreaterThan(24 * 3600 - 60);
    await t.ctx.queue.idle();
    expect(await t.ctx.kv.get(KV_KEYS.trackStatus(id))).toMatchObject({ status: "completed", filename: FIXTURES.amen });
    expect(await t.ctx.kv.get(KV_KEYS.success(userId))).toBe("Трек успешно загружен и прошёл проверку.");
    expect(await t.ctx.kv.get(KV_KEYS.errors(userId))).toBeNull();
  });
});

describe("POST /api/upload: who may upload", () => {
  it("answers 401 to an anonymous request and keeps nothing", async () => {
    const { res, body } = await postUpload(t, {}, [filePart(FIXTURES.amen), dirPart("label_koster")]);
    expect(res.status).toBe(401);
    expect(body.success).toBe(false);
    await expectNothingKept();
  });

  it("answers 403 with the ban reason to a banned user and keeps nothing", async () => {
    const banned = await createUser(t.ctx.db, { is_banned: true, ban_reason: "Спам" });
    const h = (await signIn(t.ctx, banned)).headers;
    const { res, body } = await postUpload(t, h, [filePart(FIXTURES.amen), dirPart("label_koster")]);
    expect(res.status).toBe(403);
    expect(body).toMatchObject({ success: false, error: "Спам", banned: true });
    await expectNothingKept();
  });
});

describe("POST /api/upload: the rules", () => {
  it.each(VALID_NAMES)("accepts the name %j and keeps it as sent", async (name) => {
    const { res } = await postUpload(t, headers, [filePart(name), dirPart("label_koster")]);
    expect(res.status).toBe(200);
    const [row] = await allTracks(t);
    expect(row.filename).toBe(name);
  });

  it.each(INVALID_NAMES)("refuses the name %j, naming it, and keeps nothing", async (name) => {
    const { res, body } = await postUpload(t, headers, [
      filePart("Good Artist - Good Title.mp3"),
      filePart(name),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe(`Следующие файлы имеют неверный формат имени: ${name}`);
    expect(body.invalid_files).toEqual([{ filename: name, error: "Неверный формат имени файла" }]);
    await expectNothingKept();
  });

  it("names every file at fault in one answer, whatever the order of the parts", async () => {
    const { res, body } = await postUpload(t, headers, [
      dirPart("label_koster"),
      filePart("id - One.mp3"),
      filePart("Fine - Two.mp3"),
      filePart("Notes.txt", new TextEncoder().encode("hi"), "text/plain"),
      filePart("Nodash.mp3"),
      filePart("Fine - Two.mp3"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error.split("\n")).toEqual([
      "Принимаются только файлы MP3. Следующие файлы не подходят: Notes.txt",
      "Следующие файлы имеют неверный формат имени: id - One.mp3, Nodash.mp3",
      "Файл уже добавлен: Fine - Two.mp3",
    ]);
    await expectNothingKept();
  });

  it("refuses a declared type that is not MP3", async () => {
    const { res, body } = await postUpload(t, headers, [
      filePart("Artist - Title.mp3", fixture(FIXTURES.wave), "audio/wav"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe("Принимаются только файлы MP3. Следующие файлы не подходят: Artist - Title.mp3");
    await expectNothingKept();
  });

  it("refuses the same name twice in one request", async () => {
    const { res, body } = await postUpload(t, headers, [
      filePart("A - B.mp3"),
      filePart("C - D.mp3"),
      filePart("A - B.mp3"),
      filePart("C - D.mp3"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe("Файлы уже добавлены: A - B.mp3, C - D.mp3");
    await expectNothingKept();
  });

  it("needs at least one file", async () => {
    const { res, body } = await postUpload(t, headers, [dirPart("label_koster")]);
    expect(res.status).toBe(400);
    expect(body.error).toBe("Добавьте хотя бы один файл MP3.");
    // An empty file input (no name, no bytes) is not a file.
    const r2 = await postUpload(t, headers, [
      { name: "files", filename: "", type: "application/octet-stream", data: new Uint8Array() },
      dirPart("label_koster"),
    ]);
    expect(r2.res.status).toBe(400);
    expect(r2.body.error).toBe("Добавьте хотя бы один файл MP3.");
  });

  it("needs at least one known direction and keeps nothing without one", async () => {
    const none = await postUpload(t, headers, [filePart(FIXTURES.amen)]);
    expect(none.res.status).toBe(400);
    expect(none.body.error).toBe("Выберите хотя бы одно направление.");
    const unknown = await postUpload(t, headers, [filePart(FIXTURES.amen), dirPart("label_unknown")]);
    expect(unknown.res.status).toBe(400);
    expect(unknown.body.error).toBe("Неизвестное направление: label_unknown");
    await expectNothingKept();
  });

  it("takes directions sent after the files", async () => {
    const { res } = await postUpload(t, headers, [
      filePart("A - One.mp3"),
      filePart("A - Two.mp3", fixture(FIXTURES.low)),
      dirPart("show_neurogon"),
      dirPart("radio_k_profit"),
    ]);
    expect(res.status).toBe(200);
    const rows = await allTracks(t);
    expect(rows.map((r) => r.directions)).toEqual(["show_neurogon,radio_k_profit", "show_neurogon,radio_k_profit"]);
  });

  it.each(DIRECTION_PAIRS)("%s with %s: allowed or refused by the conflict table", async (a, b) => {
    // Directions after the file: a conflict found at the end still keeps nothing.
    const { res, body } = await postUpload(t, headers, [filePart(FIXTURES.amen), dirPart(a), dirPart(b)]);
    if (specConflict(a, b)) {
      expect(res.status).toBe(400);
      expect(body.error).toContain(DIRECTION_CONFLICT_MESSAGE.slice(0, -1));
      await expectNothingKept();
    } else {
      expect(res.status).toBe(200);
      expect((await allTracks(t))[0].directions.split(",").sort()).toEqual([a, b].sort());
    }
  });

  it("allows every compatible direction at once", async () => {
    const { res } = await postUpload(t, headers, [
      dirPart("label_koster"),
      dirPart("podcast_koster"),
      dirPart("show_neurogon"),
      dirPart("radio_k_profit"),
      filePart(FIXTURES.amen),
    ]);
    expect(res.status).toBe(200);
    expect((await allTracks(t))[0].directions).toBe("label_koster,podcast_koster,show_neurogon,radio_k_profit");
  });
});

describe("POST /api/upload: Cyrillic names", () => {
  it("keeps a Cyrillic name exactly, in NFC, and answers it back", async () => {
    const name = "Артист Ёжиков - Трек «Йод» (ремикс).mp3";
    const { res, body } = await postUpload(t, headers, [
      filePart(name.normalize("NFD")),
      dirPart("label_neuropunk"),
    ]);
    expect(res.status).toBe(200);
    await t.ctx.queue.idle();
    const [row] = await allTracks(t);
    expect(row.filename).toBe(name);
    expect(row.storage_key).not.toContain("Артист");
    const status = await (await t.app.request(`/api/status/${body.track_ids[0]}`, { headers })).json();
    expect(status).toMatchObject({ status: "completed", track_data: { filename: name } });
  });

  it("names a Cyrillic file at fault", async () => {
    const { body } = await postUpload(t, headers, [filePart("айди - Трек.mp3"), dirPart("label_neuropunk")]);
    expect(body.error).toBe("Следующие файлы имеют неверный формат имени: айди - Трек.mp3");
  });
});

describe("POST /api/upload: streaming and aborts", () => {
  it("streams a multi-megabyte file into storage, intact", async () => {
    const frames = mpegFrames();
    const size = frames.byteLength * 80; // ~3.3 MB, about 3.5 minutes at 128 kbps
    const { res } = await postUpload(t, headers, [
      {
        name: "files",
        filename: "Long - Stream.mp3",
        type: "audio/mpeg",
        size,
        data: () => repeatingStream(frames, size, { chunk: 7000 }),
      },
      dirPart("label_neuropunk"),
    ]);
    expect(res.status).toBe(200);
    await t.ctx.queue.idle();
    const [row] = await allTracks(t);
    expect(row.status).toBe("completed");
    expect(row.size).toBe(size);
    expect(row.bitrate).toBe(128000);
    expect(row.duration).toBeGreaterThan(200_000);
  });

  it("keeps nothing when the client disconnects in the middle of a file", async () => {
    const frames = mpegFrames();
    const { res, body } = await postUpload(t, headers, [
      filePart(FIXTURES.amen),
      {
        name: "files",
        filename: "Second - File.mp3",
        type: "audio/mpeg",
        data: () => repeatingStream(frames, 2_000_000, { failAfter: 500_000 }),
      },
      dirPart("label_neuropunk"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe(ABORTED_MESSAGE);
    await expectNothingKept();
  });

  it("keeps nothing when the body ends before the closing boundary", async () => {
    const mp = multipartBody([filePart(FIXTURES.amen), dirPart("label_neuropunk"), filePart("B - Two.mp3")]);
    const all = new Uint8Array(await new Response(mp.body).arrayBuffer());
    const res = await t.app.request("/api/upload", {
      method: "POST",
      headers: { ...headers, "content-type": mp.contentType },
      body: all.subarray(0, all.byteLength - 5000),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(ABORTED_MESSAGE);
    await expectNothingKept();
  });

  it("refuses a body that is not multipart", async () => {
    const res = await t.app.request("/api/upload", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ files: [] }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).success).toBe(false);
  });

  it("answers 400, not 500, to a malformed multipart body", async () => {
    const res = await t.app.request("/api/upload", {
      method: "POST",
      headers: { ...headers, "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="files"; filename="A - B.mp3"\r\nbroken',
    });
    expect(res.status).toBe(400);
    await expectNothingKept();
  });
});

describe("POST /api/upload: a body that stalls (UPLOAD_IDLE_TIMEOUT_S)", () => {
  let idle: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    idle = await createTestApp({ env: { UPLOAD_IDLE_TIMEOUT_S: "1" } });
    h = (await signIn(idle.ctx, await createUser(idle.ctx.db))).headers;
  });
  afterAll(() => idle.close());

  /** A body from `chunks`, each sent after `gapMs`; then it ends, or stalls for ever when `stall`. */
  function paced(chunks: Uint8Array[], gapMs: number, stall: boolean): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        if (!chunks.length) {
          if (stall) return new Promise(() => {});
          return ctrl.close();
        }
        await new Promise((r) => setTimeout(r, gapMs));
        ctrl.enqueue(chunks.shift()!);
      },
    }, { highWaterMark: 0 });
  }

  /** The whole multipart body of `parts`, cut into `count` pieces. */
  async function pieces(parts: Part[], count: number): Promise<{ chunks: Uint8Array[]; contentType: string }> {
    const mp = multipartBody(parts);
    const all = new Uint8Array(await new Response(mp.body).arrayBuffer());
    const size = Math.ceil(all.byteLength / count);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < all.byteLength; at += size) chunks.push(all.subarray(at, at + size));
    return { chunks, contentType: mp.contentType };
  }

  it("answers 408 to a body that stops in the middle of the second file, and keeps no file and no row", async () => {
    const { chunks, contentType } = await pieces(
      [filePart(FIXTURES.amen), dirPart("label_neuropunk"), filePart("B - Two.mp3")],
      8,
    );
    // Everything up to the middle of the second file (the same size as the first), then nothing more.
    const sent = chunks.slice(0, 6);
    const res = await idle.app.request("/api/upload", {
      method: "POST",
      headers: { ...h, "content-type": contentType },
      body: paced(sent, 0, true),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({
      success: false,
      error: "Загрузка прервана: данные не поступали 1 секунду. Файлы не сохранены, попробуйте ещё раз.",
    });
    await idle.ctx.queue.idle();
    expect(await allTracks(idle)).toEqual([]);
    expect(await storedFiles(idle)).toEqual([]);
  });

  it("accepts a body that arrives slowly but steadily, for longer than the idle timeout in all", async () => {
    // 12 pieces, 200 ms apart: well over a second in all, never a second without bytes.
    const { chunks, contentType } = await pieces([filePart(FIXTURES.amen), dirPart("label_neuropunk")], 12);
    const res = await idle.app.request("/api/upload", {
      method: "POST",
      headers: { ...h, "content-type": contentType },
      body: paced(chunks, 200, false),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(200);
    await idle.ctx.queue.idle();
    const rows = await allTracks(idle);
    expect(rows).toHaveLength(1);
    expect(rows[0].size).toBe(fixture(FIXTURES.amen).byteLength);
  });
});

describe("POST /api/upload: limits", () => {
  let small: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    small = await createTestApp({ env: { MAX_UPLOAD_FILES: "2", MAX_UPLOAD_FILE_MB: "1" } });
    h = (await signIn(small.ctx, await createUser(small.ctx.db))).headers;
  });
  afterAll(() => small.close());

  async function nothingKeptIn(app: TestApp) {
    await app.ctx.queue.idle();
    expect(await allTracks(app)).toEqual([]);
    expect(await storedFiles(app)).toEqual([]);
  }

  it("answers 413 past MAX_UPLOAD_FILES and keeps nothing", async () => {
    const { res, body } = await postUpload(small, h, [
      dirPart("label_koster"),
      filePart("A - 1.mp3"),
      filePart("A - 2.mp3"),
      filePart("A - 3.mp3"),
    ]);
    expect(res.status).toBe(413);
    expect(body.error).toBe("Слишком много файлов: за один раз можно загрузить не больше 2.");
    await nothingKeptIn(small);
  });

  it("answers 413 naming a file past MAX_UPLOAD_FILE_MB and keeps nothing", async () => {
    const frames = mpegFrames();
    const size = 1024 * 1024 + 1;
    const { res, body } = await postUpload(small, h, [
      filePart("A - Small.mp3"),
      { name: "files", filename: "A - Big.mp3", type: "audio/mpeg", size, data: () => repeatingStream(frames, size) },
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(413);
    expect(body.error).toBe("Файл «A - Big.mp3» слишком большой. Максимальный размер: 1 МБ");
    await nothingKeptIn(small);
  });

  it("accepts a file of exactly the limit", async () => {
    const frames = mpegFrames();
    const size = 1024 * 1024;
    const { res } = await postUpload(small, h, [
      { name: "files", filename: "A - Exact.mp3", type: "audio/mpeg", size, data: () => repeatingStream(frames, size) },
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(200);
    await small.ctx.queue.idle();
    expect((await allTracks(small))[0]).toMatchObject({ size, status: "completed" });
    await small.ctx.db.delete(tracks).where(gte(tracks.id, 0));
    await Deno.remove(`${small.dir}/tracks`, { recursive: true });
  });

  it("answers 413 to a declared length past every limit without reading the body", async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        pulled = true;
        ctrl.close();
      },
    }, { highWaterMark: 0 });
    const res = await small.app.request("/api/upload", {
      method: "POST",
      headers: { ...h, "content-type": "multipart/form-data; boundary=x", "content-length": String(10 * 1024 * 1024) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe(
      "Слишком большой запрос: за один раз можно загрузить не больше 2 файлов по 1 МБ.",
    );
    expect(pulled).toBe(false);
    await nothingKeptIn(small);
  });
});

describe("POST /api/upload: naughty names", () => {
  it("answers 400, not 500, to control characters in a file name, and keeps nothing", async () => {
    const { res, body } = await postUpload(t, headers, [
      filePart(FIXTURES.amen),
      filePart("Roses \u001b[0;31mred - Title.mp3"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe(MALFORMED_MESSAGE);
    await expectNothingKept();
  });

  it("stores every naughty name that passes the rules exactly, and never fails with a 500", async () => {
    const wide = await createTestApp({ env: { MAX_UPLOAD_FILES: "1000", MAX_UPLOADS_PER_HOUR: "1000" } });
    try {
      const h = (await signIn(wide.ctx, await createUser(wide.ctx.db))).headers;
      const blns: string[] = JSON.parse(
        Deno.readTextFileSync(new URL("../../test/fixtures/naughty/blns.json", import.meta.url)),
      );
      const tiny = new TextEncoder().encode("not audio");
      // Path separators are dropped by the parser (tested apart); the rest must arrive unchanged.
      const parts: Part[] = blns
        .filter((s) => !/[\\/]/.test(s) && !CTL.test(s))
        .map((s, i) => filePart(`${s} ${i} - Title ${i}.mp3`, tiny));
      const first = await postUpload(wide, h, [...parts, dirPart("label_koster")]);
      // Some strings break the rules (an "id"-only artist cannot happen here, but control characters can).
      expect([200, 400], JSON.stringify(first.body)).toContain(first.res.status);
      if (first.res.status === 400) {
        expect(first.body.invalid_files, first.body.error).toBeDefined();
        const bad = new Set((first.body.invalid_files as Array<{ filename: string }>).map((f) => f.filename));
        expect(bad.size).toBeGreaterThan(0);
        await nothingKeptIn(wide);
        const rest = parts.filter((p) => !bad.has(received((p as { filename: string }).filename)));
        const second = await postUpload(wide, h, [...rest, dirPart("label_koster")]);
        expect(second.res.status).toBe(200);
        const stored = (await allTracks(wide)).map((r) => r.filename).sort();
        expect(stored).toEqual(rest.map((p) => received((p as { filename: string }).filename)).sort());
      }
      await wide.ctx.queue.idle();
    } finally {
      await wide.close();
    }

    async function nothingKeptIn(app: TestApp) {
      expect(await allTracks(app)).toEqual([]);
      expect(await storedFiles(app)).toEqual([]);
    }
  });
});

/** Control characters a header cannot carry (the multipart builder escapes CR and LF as browsers do). */
// deno-lint-ignore no-control-regex
const CTL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The name the server sees: the multipart header escapes quotes and line breaks as browsers do. */
function received(sent: string): string {
  return sent.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A").normalize("NFC");
}
