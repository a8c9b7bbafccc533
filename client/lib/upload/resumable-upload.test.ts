// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr, type SentRequest } from "../../../server/testing/fake-xhr.ts";
import type { ResumableUploadSummary } from "../../../domain/resumable-upload.ts";
import {
  cancelUnfinished,
  checkStored,
  continueUnfinished,
  doneShare,
  fileKey,
  fileMismatch,
  listUnfinished,
  PART_RETRY_DELAYS_MS,
  RESUMABLE_TEXTS,
  type ResumableUpload,
  retryDelay,
  storedUpload,
  uploadResumable,
} from "./resumable-upload.ts";

const PART = 10;
const LATER = new Date(Date.now() + 86_400_000).toISOString();

/** A file of `size` bytes whose byte i is i % 251, so every part's slice can be checked. */
function mp3(name: string, size: number, lastModified = 1_700_000_000_000) {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  return new File([bytes], name, { type: "audio/mpeg", lastModified });
}

/** The server side of the contract, in memory: uploads, their parts, and what was asked of it. */
function fakeServer(
  mode: "s3" | "local",
  opts: {
    refuseStart?: (n: number) => { status: number; body: unknown };
    /** As the server before issue 31: a part of the wrong size listed as done. */
    listShortParts?: boolean;
  } = {},
) {
  const uploads = new Map<
    string,
    {
      upload: ResumableUpload;
      parts: Map<number, Blob>;
      gone?: boolean;
      start: { directions: string; last_modified: number | null };
    }
  >();
  let starts = 0;
  let tracks = 100;
  const urls = (u: ResumableUpload, done: Set<number>, round: number) =>
    mode === "local" ? {} : Object.fromEntries(
      Array.from({ length: u.part_count }, (_, i) => i + 1).filter((n) => !done.has(n)).map((
        n,
      ) => [String(n), `https://bucket.test/${u.id}/${n}?sig=${round}`]),
    );
  let round = 0;
  const expected = (u: ResumableUpload, n: number) => Math.min(u.part_size, u.size - (n - 1) * u.part_size);
  /** Parts the server holds whole (a short one is not done), as the server lists them. */
  const doneOf = (id: string) => {
    const entry = uploads.get(id)!;
    return [...entry.parts].filter(([n, b]) => opts.listShortParts || b.size === expected(entry.upload, n))
      .map(([n]) => n).sort((a, b) => a - b);
  };
  const view = (id: string) => {
    const entry = uploads.get(id)!;
    const done = new Set(doneOf(id));
    return { ...entry.upload, parts_done: [...done], part_urls: urls(entry.upload, done, ++round) };
  };
  const summary = (id: string): ResumableUploadSummary => {
    const { upload: u, start } = uploads.get(id)!;
    const done = doneOf(id);
    return {
      id,
      filename: u.filename,
      size: u.size,
      last_modified: start.last_modified,
      directions: start.directions.split(",") as ResumableUploadSummary["directions"],
      part_size: u.part_size,
      part_count: u.part_count,
      parts_done: done,
      bytes_done: done.reduce((sum, n) => sum + expected(u, n), 0),
      created_at: new Date().toISOString(),
      expires_at: u.expires_at,
    };
  };
  const handle = (req: SentRequest): { status: number; body?: unknown } | "network" | "hold" => {
    const url = new URL(req.url, "http://site.test");
    if (url.host === "bucket.test") {
      const [, id, n] = url.pathname.split("/");
      uploads.get(id)!.parts.set(Number(n), req.body as Blob);
      return { status: 200 };
    }
    const path = url.pathname;
    if (req.method === "GET" && path === "/api/upload/resumable") {
      const open = [...uploads.keys()].filter((id) => !uploads.get(id)!.gone).reverse();
      return { status: 200, body: { success: true, uploads: open.map(summary) } };
    }
    if (req.method === "POST" && path === "/api/upload/resumable") {
      starts++;
      const refusal = opts.refuseStart?.(starts);
      if (refusal) return refusal;
      const { filename, size, directions, last_modified } = JSON.parse(req.body as string);
      const id = `up${starts}`;
      const upload: ResumableUpload = {
        id,
        filename,
        size,
        mode,
        part_size: PART,
        part_count: Math.ceil(size / PART),
        parts_done: [],
        part_urls: {},
        expires_at: LATER,
      };
      uploads.set(id, { upload, parts: new Map(), start: { directions, last_modified: last_modified ?? null } });
      return { status: 201, body: { success: true, upload: view(id) } };
    }
    const m = /^\/api\/upload\/resumable\/([^/]+)(?:\/(parts)\/(\d+)|\/(complete))?$/.exec(path);
    const entry = m && uploads.get(m[1]);
    if (!m || !entry || entry.gone) return { status: 404, body: { success: false, error: "Загрузка не найдена" } };
    if (req.method === "GET") return { status: 200, body: { success: true, upload: view(m[1]) } };
    if (req.method === "DELETE") {
      entry.gone = true;
      return { status: 200, body: { success: true } };
    }
    if (m[2] === "parts") {
      entry.parts.set(Number(m[3]), req.body as Blob);
      return { status: 200, body: { success: true, part: Number(m[3]) } };
    }
    if (m[4] === "complete") {
      const short = [...entry.parts].filter(([n, b]) => b.size !== expected(entry.upload, n)).map(([n]) => n);
      if (short.length > 0) {
        const error = `Часть ${short[0]} файла не того размера: отправьте её ещё раз.`;
        return { status: 409, body: { success: false, error, resend_parts: short } };
      }
      if (entry.parts.size !== entry.upload.part_count) {
        return { status: 409, body: { success: false, error: "Не все части загружены" } };
      }
      entry.gone = true;
      return { status: 200, body: { success: true, track_id: tracks++ } };
    }
    return { status: 400 };
  };
  return {
    uploads,
    handle,
    get starts() {
      return starts;
    },
    /** The file as the server holds it, parts in order. */
    async assembled(id: string) {
      const parts = uploads.get(id)!.parts;
      const blobs = [...parts.keys()].sort((a, b) => a - b).map((n) => parts.get(n)!);
      return new Uint8Array(await new Blob(blobs).arrayBuffer());
    },
  };
}

const noWait = { sleep: vi.fn((_ms: number) => Promise.resolve()) };
const partsSent = () => FakeXhr.sent.filter((r) => r.method === "PUT");

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem("accessToken", "acc");
  noWait.sleep.mockClear();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("resumable upload", () => {
  it("local disk: starts, sends each part to the part endpoint with the session, completes", async () => {
    const server = fakeServer("local");
    FakeXhr.reset(server.handle);
    const file = mp3("A - 1.mp3", 25);
    const progress: number[] = [];
    const outcome = await uploadResumable([file], ["label_koster", "radio_k_profit"], {
      onProgress: (_i, p) => progress.push(p),
    }, { deps: noWait });
    expect(outcome).toEqual({ kind: "success", trackIds: [100] });
    const start = FakeXhr.sent[0];
    expect(start.method).toBe("POST");
    expect(JSON.parse(start.body as string)).toEqual({
      filename: "A - 1.mp3",
      size: 25,
      last_modified: 1_700_000_000_000,
      directions: "label_koster,radio_k_profit",
    });
    expect(partsSent().map((r) => r.url)).toEqual([1, 2, 3].map((n) => `/api/upload/resumable/up1/parts/${n}`));
    expect(partsSent().every((r) => r.headers.Authorization === "Bearer acc")).toBe(true);
    expect(FakeXhr.sent.at(-1)!.url).toBe("/api/upload/resumable/up1/complete");
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
    expect(progress.at(-1)).toBe(100);
    expect(storedUpload(file)).toBeNull();
  });

  it("S3: sends the parts straight to their presigned addresses, without the site's token or cookies", async () => {
    const server = fakeServer("s3");
    FakeXhr.reset(server.handle);
    const file = mp3("A - 1.mp3", 25);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome).toEqual({ kind: "success", trackIds: [100] });
    expect(partsSent().map((r) => new URL(r.url).pathname)).toEqual(["/up1/1", "/up1/2", "/up1/3"]);
    expect(partsSent().every((r) => !r.headers.Authorization && !r.withCredentials)).toBe(true);
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it("retries a failed part with growing waits and goes on", async () => {
    const server = fakeServer("local");
    let failures = 2;
    FakeXhr.reset((req) => (req.url.endsWith("/parts/2") && failures-- > 0 ? "network" : server.handle(req)));
    const file = mp3("A - 1.mp3", 25);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome.kind).toBe("success");
    expect(noWait.sleep.mock.calls.map(([ms]) => ms)).toEqual([PART_RETRY_DELAYS_MS[0], PART_RETRY_DELAYS_MS[1]]);
    expect(partsSent().map((r) => r.url.split("/").at(-1))).toEqual(["1", "2", "2", "2", "3"]);
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it("keeps trying while the connection is gone, says so, and goes on by itself when it returns (issue 31)", async () => {
    const server = fakeServer("local");
    let down = 9;
    FakeXhr.reset((req) => (req.url.endsWith("/parts/2") && down-- > 0 ? "network" : server.handle(req)));
    const stalls: boolean[] = [];
    const file = mp3("A - 1.mp3", 25);
    const outcome = await uploadResumable([file], ["label_koster"], {
      onProgress: () => {},
      onStall: (s) => stalls.push(s),
    }, { deps: noWait });
    expect(outcome).toEqual({ kind: "success", trackIds: [100] });
    // Nine failed tries, each followed by a wait growing to 30 s and staying there: no giving up.
    expect(noWait.sleep.mock.calls.map(([ms]) => ms)).toEqual([
      1000,
      2000,
      4000,
      8000,
      15_000,
      30_000,
      30_000,
      30_000,
      30_000,
    ]);
    expect(retryDelay(100)).toBe(PART_RETRY_DELAYS_MS.at(-1));
    // Said at each failure, and taken back when the part went through.
    expect(stalls).toEqual([...Array(9).fill(true), false]);
    expect(partsSent().map((r) => r.url.split("/").at(-1))).toEqual(["1", ...Array(10).fill("2"), "3"]);
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it("the real wait ends early when the browser says the connection is back", async () => {
    const server = fakeServer("local");
    let down = 1;
    FakeXhr.reset((req) => (req.url.endsWith("/parts/1") && down-- > 0 ? "network" : server.handle(req)));
    vi.useFakeTimers();
    try {
      const done = uploadResumable([mp3("A - 1.mp3", 5)], ["label_koster"], { onProgress: () => {} });
      await vi.waitFor(() => expect(partsSent()).toHaveLength(1));
      // No timer has run: the 1 s wait is cut short by the `online` event alone.
      globalThis.dispatchEvent(new Event("online"));
      vi.useRealTimers();
      expect(await done).toEqual({ kind: "success", trackIds: [100] });
      expect(partsSent()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("after a reload: lists the unfinished upload, continues it with the file alone and sends only the missing parts", async () => {
    const server = fakeServer("local");
    let online = true;
    FakeXhr.reset((req) => {
      if (req.url.endsWith("/parts/4")) online = false;
      return online ? server.handle(req) : "network";
    });
    const file = mp3("A - 1.mp3", 65);
    // The page is left (a reload) while it keeps trying part 4.
    const leave = new AbortController();
    noWait.sleep.mockImplementation(() => {
      if (noWait.sleep.mock.calls.length >= 3) leave.abort();
      return Promise.resolve();
    });
    const first = await uploadResumable([file], ["label_koster", "radio_k_profit"], { onProgress: () => {} }, {
      deps: noWait,
      signal: leave.signal,
      aiUse: "no",
    });
    noWait.sleep.mockImplementation(() => Promise.resolve());
    expect(first).toEqual({ kind: "error", message: RESUMABLE_TEXTS.interrupted });
    expect(storedUpload(file)).toMatchObject({ id: "up1", parts_done: [1, 2, 3], part_size: PART });

    // A reload in another browser even: nothing stored, the server lists it.
    localStorage.removeItem("resumableUploads");
    online = true;
    FakeXhr.reset(server.handle);
    const [listed, ...others] = (await listUnfinished())!;
    expect(others).toEqual([]);
    expect(listed).toMatchObject({
      id: "up1",
      filename: "A - 1.mp3",
      size: 65,
      last_modified: 1_700_000_000_000,
      directions: ["label_koster", "radio_k_profit"],
      parts_done: [1, 2, 3],
      bytes_done: 30,
    });

    // Another file (edited since: a later modification time) is refused before a byte moves.
    const sent = FakeXhr.sent.length;
    const edited = await continueUnfinished(listed, mp3("A - 1.mp3", 65, 1_700_000_000_001), {
      onProgress: () => {},
    }, { deps: noWait });
    expect(edited).toEqual({ kind: "error", message: fileMismatch(mp3("A - 1.mp3", 65, 1), listed) });
    expect(FakeXhr.sent.length).toBe(sent);

    const progress: number[] = [];
    const again = mp3("A - 1.mp3", 65);
    const second = await continueUnfinished(listed, again, { onProgress: (p) => progress.push(p) }, {
      deps: noWait,
    });
    expect(second).toEqual({ kind: "success", trackIds: [100] });
    expect(server.starts).toBe(1);
    expect(partsSent().map((r) => r.url.split("/").at(-1))).toEqual(["4", "5", "6", "7"]);
    expect(progress[0]).toBe(doneShare(65, PART, [1, 2, 3]));
    expect(progress[0]).toBe(46);
    expect(progress.at(-1)).toBe(100);
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
    expect(storedUpload(again)).toBeNull();
  });

  it("a file is the listed upload's only by name, size and modification time", () => {
    const listed = { filename: "Artist - Тема.mp3", size: 65, last_modified: 1_700_000_000_000 };
    expect(fileMismatch(mp3("Artist - Тема.mp3", 65), listed)).toBeNull();
    // The name as the system gives it (decomposed «й») is the same name.
    expect(fileMismatch(mp3("Artist - Тема.mp3".normalize("NFD"), 65), listed)).toBeNull();
    expect(fileMismatch(mp3("Artist - Тема 2.mp3", 65), listed)).toMatch(
      /^Это другой файл: нужен «Artist - Тема\.mp3»/,
    );
    expect(fileMismatch(mp3("Artist - Тема.mp3", 64), listed)).not.toBeNull();
    expect(fileMismatch(mp3("Artist - Тема.mp3", 65, 1), listed)).not.toBeNull();
    // An upload started without a modification time is matched by name and size.
    expect(fileMismatch(mp3("Artist - Тема.mp3", 65, 1), { ...listed, last_modified: null })).toBeNull();
  });

  it("«Отменить» deletes the upload on the server and forgets this browser's record of it", async () => {
    const server = fakeServer("local");
    FakeXhr.reset((
      req,
    ) => (req.url.endsWith("/parts/2") ? { status: 413, body: { success: false, error: "x" } } : server.handle(req)));
    const file = mp3("A - 1.mp3", 25);
    await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(storedUpload(file)?.id).toBe("up1");
    expect(await cancelUnfinished("up1")).toBeNull();
    expect(FakeXhr.sent.at(-1)).toMatchObject({ method: "DELETE", url: "/api/upload/resumable/up1" });
    expect(storedUpload(file)).toBeNull();
    expect(await listUnfinished()).toEqual([]);
    // Already gone is what was asked.
    expect(await cancelUnfinished("up1")).toBeNull();
  });

  it("a part the server stored short is sent again, whether it was listed as done or not (issue 31)", async () => {
    // In a bucket, listed as not done (the server's rule); on the part endpoint, listed as done and
    // named by the completion's 409 (`resend_parts`).
    for (const [mode, listShortParts] of [["s3", false], ["local", true]] as const) {
      localStorage.removeItem("resumableUploads");
      const server = fakeServer(mode, { listShortParts });
      // The cut connection delivered 3 bytes of part 2, and no answer to the page.
      let cut = true;
      FakeXhr.reset((req) => {
        if (cut && (req.url.includes("/up1/2?") || req.url.endsWith("/up1/parts/2"))) {
          cut = false;
          server.uploads.get("up1")!.parts.set(2, (req.body as Blob).slice(0, 3));
          return "network";
        }
        return server.handle(req);
      });
      // The page was closed while it waited to try part 2 again.
      const leave = new AbortController();
      noWait.sleep.mockImplementationOnce(() => {
        leave.abort();
        return Promise.resolve();
      });
      const file = mp3("A - 1.mp3", 25);
      const first = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, {
        deps: noWait,
        signal: leave.signal,
      });
      expect(first).toEqual({ kind: "error", message: RESUMABLE_TEXTS.interrupted });

      FakeXhr.reset(server.handle);
      const [listed] = (await listUnfinished())!;
      const outcome = await continueUnfinished(listed, mp3("A - 1.mp3", 25), { onProgress: () => {} }, {
        deps: noWait,
      });
      expect(outcome, `listShortParts: ${listShortParts}`).toEqual({ kind: "success", trackIds: [100] });
      const sentAfter = FakeXhr.sent.filter((r) => r.method === "PUT").map((r) =>
        r.url.split("?")[0].split("/").at(-1)
      );
      // Part 3 was never tried before the page closed; part 2 goes again, before completion or after its 409.
      expect(sentAfter).toEqual(mode === "s3" ? ["2", "3"] : ["3", "2"]);
      expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
    }
  });

  it("drops a stored upload the server no longer has and starts the file anew", async () => {
    const server = fakeServer("local");
    FakeXhr.reset(server.handle);
    const file = mp3("A - 1.mp3", 15);
    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({
        [fileKey(file)]: { id: "gone", size: 15, part_size: PART, parts_done: [1], expires_at: LATER },
      }),
    );
    expect(await checkStored(file)).toBeNull();
    expect(localStorage.getItem("resumableUploads")).toBeNull();

    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({
        [fileKey(file)]: { id: "gone", size: 15, part_size: PART, parts_done: [1], expires_at: LATER },
      }),
    );
    FakeXhr.reset(server.handle);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome.kind).toBe("success");
    expect(FakeXhr.sent.map((r) => `${r.method} ${r.url}`).slice(0, 2)).toEqual([
      "GET /api/upload/resumable/gone",
      "POST /api/upload/resumable",
    ]);
    expect(partsSent()).toHaveLength(2);
  });

  it("forgets an expired record without asking the server", () => {
    const file = mp3("A - 1.mp3", 15);
    const past = new Date(Date.now() - 1000).toISOString();
    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({ [fileKey(file)]: { id: "old", size: 15, part_size: PART, parts_done: [1], expires_at: past } }),
    );
    expect(storedUpload(file)).toBeNull();
    expect(localStorage.getItem("resumableUploads")).toBeNull();
  });

  it("a different file of the same name (another size or date) is not resumed", () => {
    const file = mp3("A - 1.mp3", 15);
    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({ [fileKey(file)]: { id: "u", size: 15, part_size: PART, parts_done: [1], expires_at: LATER } }),
    );
    expect(storedUpload(mp3("A - 1.mp3", 15, 1_700_000_000_001))).toBeNull();
    expect(storedUpload(mp3("A - 1.mp3", 16))).toBeNull();
    expect(storedUpload(file)?.id).toBe("u");
  });

  it("a file refused at start (the hourly cap) sends nothing and aborts the batch's other starts", async () => {
    const error = "Слишком много загрузок за час: не больше 1 файла. Попробуйте позже: через 59 мин.";
    const server = fakeServer("local", {
      refuseStart: (n) => (n === 2 ? { status: 429, body: { success: false, error } } : undefined)!,
    });
    FakeXhr.reset(server.handle);
    const a = mp3("A - 1.mp3", 15);
    const b = mp3("B - 2.mp3", 15);
    const outcome = await uploadResumable([a, b], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome).toEqual({ kind: "error", message: error });
    expect(partsSent()).toHaveLength(0);
    expect(FakeXhr.sent.at(-1)).toMatchObject({ method: "DELETE", url: "/api/upload/resumable/up1" });
    expect(storedUpload(a)).toBeNull();
  });

  it("treats a 403 at start as a ban", async () => {
    FakeXhr.reset(() => ({ status: 403, body: { success: false, error: "Аккаунт заблокирован: спам" } }));
    const outcome = await uploadResumable([mp3("A - 1.mp3", 5)], ["label_koster"], { onProgress: () => {} }, {
      deps: noWait,
    });
    expect(outcome).toEqual({ kind: "banned", message: "Аккаунт заблокирован: спам" });
  });

  it("S3: a part refused by the bucket (an address run out) is sent again to a fresh address", async () => {
    const server = fakeServer("s3");
    let refused = false;
    FakeXhr.reset((req) => {
      if (req.url.includes("/up1/2?") && !refused) {
        refused = true;
        return { status: 403 };
      }
      return server.handle(req);
    });
    const file = mp3("A - 1.mp3", 25);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome.kind).toBe("success");
    const twos = partsSent().filter((r) => new URL(r.url).pathname === "/up1/2").map((r) => r.url);
    expect(twos).toHaveLength(2);
    expect(twos[0]).not.toBe(twos[1]);
    expect(FakeXhr.sent.some((r) => r.method === "GET" && r.url === "/api/upload/resumable/up1")).toBe(true);
  });

  it("asks for the completion again when its answer was lost", async () => {
    const server = fakeServer("local");
    let lost = 1;
    FakeXhr.reset((req) => (req.url.endsWith("/complete") && lost-- > 0 ? "network" : server.handle(req)));
    const file = mp3("A - 1.mp3", 15);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome).toEqual({ kind: "success", trackIds: [100] });
    expect(FakeXhr.sent.filter((r) => r.url.endsWith("/complete"))).toHaveLength(2);
    expect(storedUpload(file)).toBeNull();
  });

  it("asks for the completion on while its answers are lost, saying so (issue 31)", async () => {
    const server = fakeServer("local");
    let lost = 8;
    FakeXhr.reset((req) => (req.url.endsWith("/complete") && lost-- > 0 ? "network" : server.handle(req)));
    const stalls: boolean[] = [];
    const outcome = await uploadResumable([mp3("A - 1.mp3", 15)], ["label_koster"], {
      onProgress: () => {},
      onStall: (s) => stalls.push(s),
    }, { deps: noWait });
    expect(outcome).toEqual({ kind: "success", trackIds: [100] });
    expect(FakeXhr.sent.filter((r) => r.url.endsWith("/complete"))).toHaveLength(9);
    expect(noWait.sleep.mock.calls.map(([ms]) => ms).slice(-3)).toEqual([30_000, 30_000, 30_000]);
    expect(stalls).toEqual([...Array(8).fill(true), false]);
  });

  it("a completion refused as too large shows the server's text and forgets the upload", async () => {
    const server = fakeServer("local");
    const error = "Файл слишком большой: не больше 50 МБ";
    FakeXhr.reset((req) =>
      req.url.endsWith("/complete") ? { status: 413, body: { success: false, error } } : server.handle(req)
    );
    const file = mp3("A - 1.mp3", 15);
    const outcome = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(outcome).toEqual({ kind: "error", message: error });
    expect(storedUpload(file)).toBeNull();
  });
});
