// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr, type SentRequest } from "../../../server/testing/fake-xhr.ts";
import {
  checkStored,
  doneShare,
  fileKey,
  PART_RETRY_DELAYS_MS,
  RESUMABLE_TEXTS,
  type ResumableUpload,
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
  opts: { refuseStart?: (n: number) => { status: number; body: unknown } } = {},
) {
  const uploads = new Map<string, { upload: ResumableUpload; parts: Map<number, Blob>; gone?: boolean }>();
  let starts = 0;
  let tracks = 100;
  const urls = (u: ResumableUpload, done: Set<number>, round: number) =>
    mode === "local" ? {} : Object.fromEntries(
      Array.from({ length: u.part_count }, (_, i) => i + 1).filter((n) => !done.has(n)).map((
        n,
      ) => [String(n), `https://bucket.test/${u.id}/${n}?sig=${round}`]),
    );
  let round = 0;
  const view = (id: string) => {
    const entry = uploads.get(id)!;
    const done = new Set(entry.parts.keys());
    return { ...entry.upload, parts_done: [...done].sort(), part_urls: urls(entry.upload, done, ++round) };
  };
  const handle = (req: SentRequest): { status: number; body?: unknown } | "network" | "hold" => {
    const url = new URL(req.url, "http://site.test");
    if (url.host === "bucket.test") {
      const [, id, n] = url.pathname.split("/");
      uploads.get(id)!.parts.set(Number(n), req.body as Blob);
      return { status: 200 };
    }
    const path = url.pathname;
    if (req.method === "POST" && path === "/api/upload/resumable") {
      starts++;
      const refusal = opts.refuseStart?.(starts);
      if (refusal) return refusal;
      const { filename, size } = JSON.parse(req.body as string);
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
      uploads.set(id, { upload, parts: new Map() });
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

  it("keeps the upload after the connection is gone for good, then the same file picked again sends only the missing parts", async () => {
    const server = fakeServer("local");
    let online = true;
    FakeXhr.reset((req) => {
      if (req.url.endsWith("/parts/4")) online = false;
      return online ? server.handle(req) : "network";
    });
    const file = mp3("A - 1.mp3", 65);
    const first = await uploadResumable([file], ["label_koster"], { onProgress: () => {} }, { deps: noWait });
    expect(first).toEqual({ kind: "error", message: RESUMABLE_TEXTS.interrupted });
    expect(noWait.sleep).toHaveBeenCalledTimes(PART_RETRY_DELAYS_MS.length);
    expect(storedUpload(file)).toMatchObject({ id: "up1", parts_done: [1, 2, 3], part_size: PART });
    expect(doneShare(65, PART, [1, 2, 3])).toBe(46);

    // A reload: a new File object for the same file on disk.
    online = true;
    FakeXhr.reset(server.handle);
    const again = mp3("A - 1.mp3", 65);
    expect((await checkStored(again))?.parts_done).toEqual([1, 2, 3]);
    const progress: number[] = [];
    const second = await uploadResumable([again], [], { onProgress: (_i, p) => progress.push(p) }, { deps: noWait });
    expect(second).toEqual({ kind: "success", trackIds: [100] });
    expect(server.starts).toBe(1);
    expect(partsSent().map((r) => r.url.split("/").at(-1))).toEqual(["4", "5", "6", "7"]);
    expect(progress[0]).toBe(46);
    expect(await server.assembled("up1")).toEqual(new Uint8Array(await file.arrayBuffer()));
    expect(storedUpload(again)).toBeNull();
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
