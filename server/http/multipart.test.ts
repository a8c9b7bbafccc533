import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, badRequest, tooLarge } from "../lib/http-error.ts";
import { type FileSpec, type MultipartOptions, receiveMultipart, sniffImage } from "./multipart.ts";
import { createLocalStorage, type FileStorage } from "../storage/file-storage.ts";
import { multipartBody, type Part, repeatingStream } from "../testing/multipart-body.ts";

const root = await Deno.makeTempDir({ prefix: "multipart-test-" });
afterAll(() => Deno.remove(root, { recursive: true }));

let storage: FileStorage;
let other: FileStorage;
let dir: string;
beforeEach(async () => {
  dir = await Deno.makeTempDir({ dir: root });
  storage = createLocalStorage(`${dir}/a`);
  other = createLocalStorage(`${dir}/b`);
});

/** Every file left on disk, temporary `.part-` files included. */
async function leftOnDisk(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    try {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory) await walk(`${d}/${e.name}`);
        else out.push(`${d}/${e.name}`.slice(dir.length + 1));
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  };
  await walk(dir);
  return out.sort();
}

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 1, 2, 3]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let counter = 0;
const fileSpec = (over: Partial<FileSpec> = {}): FileSpec => ({
  storage,
  maxBytes: 1000,
  accept: (part) => (part.filename.startsWith("skip") ? null : `f/${++counter}`),
  tooLarge: (part) => tooLarge(`«${part.filename}» is too large`),
  ...over,
});

const options = (over: Partial<MultipartOptions> = {}): MultipartOptions => ({
  files: { doc: fileSpec(), pic: fileSpec({ storage: other }) },
  limits: { fields: 5, fieldSize: 100, parts: 10 },
  idleTimeoutMs: 60_000,
  messages: { notMultipart: "not multipart", aborted: "aborted", malformedHeader: "bad header" },
  ...over,
});

function request(parts: Part[], headers: Record<string, string> = {}): Request {
  const mp = multipartBody(parts);
  return new Request("http://x/", {
    method: "POST",
    headers: { "content-type": mp.contentType, ...headers },
    body: mp.body,
    duplex: "half",
  } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await promise.then(() => null, (e) => e);
  expect(err, "expected the form to be refused").toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, message: (err as ApiError).message };
}

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

describe("receiveMultipart", () => {
  it("keeps text fields and stores each accepted file in part order, reading past unknown and skipped parts", async () => {
    const seen: string[] = [];
    const form = await receiveMultipart(
      request([
        { name: "title", value: "Привет" },
        { name: "doc", filename: "Первый.bin", type: "application/x-a", data: bytes(10, 1) },
        { name: "unknown", filename: "x.bin", data: bytes(50) },
        { name: "doc", filename: "skip.bin", data: bytes(30) },
        {
          name: "pic",
          filename: "b.bin",
          type: "image/png",
          data: () => repeatingStream(bytes(3, 2), 900, { chunk: 100 }),
        },
        { name: "title", value: "last" },
      ]),
      options({ onField: (name, value) => seen.push(`${name}=${value}`) }),
    );
    expect(seen).toEqual(["title=Привет", "title=last"]);
    expect(form.fields).toEqual({ title: "last" });
    expect(form.files.map((f) => [f.field, f.filename, f.mimeType, f.size])).toEqual([
      ["doc", "Первый.bin", "application/x-a", 10],
      ["pic", "b.bin", "image/png", 900],
    ]);
    expect(await leftOnDisk()).toEqual([`a/${form.files[0].key}`, `b/${form.files[1].key}`]);
    const read = await storage.read(form.files[0].key);
    expect(new Uint8Array(await new Response(read.body).arrayBuffer())).toEqual(bytes(10, 1));

    await form.discard();
    expect(await leftOnDisk()).toEqual([]);
  });

  it("lets a content check see the first bytes, and a refusal removes every file of the request", async () => {
    const heads: number[] = [];
    const pic = fileSpec({
      storage: other,
      headBytes: 8,
      accept(_part, head) {
        heads.push(head.byteLength);
        const kind = sniffImage(head);
        if (!kind) throw badRequest("not an image");
        return `img/${++counter}.${kind}`;
      },
    });
    const ok = await receiveMultipart(
      request([{ name: "pic", filename: "p", data: () => repeatingStream(PNG, 600, { chunk: 3 }) }]),
      options({ files: { pic } }),
    );
    expect(ok.files[0].key).toMatch(/\.png$/);
    expect(ok.files[0].size).toBe(600);
    expect(heads[0]).toBeGreaterThanOrEqual(8);
    const stored = await other.read(ok.files[0].key);
    expect(new Uint8Array(await new Response(stored.body).arrayBuffer())).toEqual(
      new Uint8Array(600).map((_, i) => PNG[i % PNG.length]),
    );
    await ok.discard();

    const refused = receiveMultipart(
      request([
        { name: "doc", filename: "first", data: bytes(500) },
        { name: "pic", filename: "good.jpg", data: JPEG },
        { name: "pic", filename: "text.png", data: new TextEncoder().encode("<svg/>") },
      ]),
      options({ files: { doc: fileSpec(), pic } }),
    );
    expect(await refusal(refused)).toEqual({ status: 400, message: "not an image" });
    expect(await leftOnDisk()).toEqual([]);
  });

  it("accepts a file of exactly its limit and refuses one byte more, keeping nothing", async () => {
    const exact = await receiveMultipart(request([{ name: "doc", filename: "exact", data: bytes(1000) }]), options());
    expect(exact.files[0].size).toBe(1000);
    await exact.discard();

    const over = receiveMultipart(
      request([
        { name: "pic", filename: "kept until the end", data: bytes(10) },
        { name: "doc", filename: "big", data: () => repeatingStream(bytes(1), 1001, { chunk: 100 }) },
        { name: "doc", filename: "never read", data: bytes(10) },
      ]),
      options(),
    );
    expect(await refusal(over)).toEqual({ status: 413, message: "«big» is too large" });
    expect(await leftOnDisk()).toEqual([]);
  });

  it("refuses a declared length past the total before reading a byte", async () => {
    let pulled = false;
    const req = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "5000" },
      body: new ReadableStream({
        pull(ctrl) {
          pulled = true;
          ctrl.close();
        },
      }, { highWaterMark: 0 }),
      duplex: "half",
    } as RequestInit);
    const err = await refusal(
      receiveMultipart(req, options({ maxBody: { bytes: 4999, error: tooLarge("body too large") } })),
    );
    expect(err).toEqual({ status: 413, message: "body too large" });
    expect(pulled).toBe(false);
  });

  it("answers the caller's texts for the wrong type, a missing body, too many fields and a truncated value", async () => {
    const json = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await refusal(receiveMultipart(json, options()))).toEqual({ status: 400, message: "not multipart" });
    const empty = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(await refusal(receiveMultipart(empty, options({ messages: { ...options().messages, noBody: "empty" } }))))
      .toEqual({ status: 400, message: "empty" });
    const noBoundary = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data" },
      body: "abc",
    });
    expect(await refusal(receiveMultipart(noBoundary, options()))).toEqual({ status: 400, message: "not multipart" });

    const many = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, value: "v" }));
    const withLimit = options({ messages: { ...options().messages, tooManyFields: badRequest("too many fields") } });
    expect(
      await refusal(receiveMultipart(request([{ name: "doc", filename: "a", data: bytes(5) }, ...many]), withLimit)),
    )
      .toEqual({ status: 400, message: "too many fields" });
    // Without an answer for the limit, busboy skips the extra fields.
    expect(Object.keys((await receiveMultipart(request(many), options())).fields)).toHaveLength(5);

    const strict = options({
      onField: (name, _v, { truncated }) => {
        if (truncated && name === "bio") throw badRequest("bio too long");
      },
    });
    const lax = await receiveMultipart(request([{ name: "note", value: "x".repeat(101) }]), strict);
    expect(lax.fields).toEqual({});
    const refused = receiveMultipart(
      request([{ name: "doc", filename: "a", data: bytes(5) }, { name: "bio", value: "x".repeat(101) }]),
      strict,
    );
    expect(await refusal(refused)).toEqual({ status: 400, message: "bio too long" });
    expect(await leftOnDisk()).toEqual([]);
  });

  it("keeps nothing when the body breaks off or ends before the closing boundary", async () => {
    const broken = receiveMultipart(
      request([
        { name: "doc", filename: "whole", data: bytes(100) },
        { name: "pic", filename: "cut", data: () => repeatingStream(bytes(9), 900, { chunk: 50, failAfter: 300 }) },
      ]),
      options(),
    );
    expect(await refusal(broken)).toEqual({ status: 400, message: "aborted" });

    const mp = multipartBody([{ name: "doc", filename: "whole", data: bytes(100) }, {
      name: "pic",
      filename: "b",
      data: bytes(600),
    }]);
    const all = new Uint8Array(await new Response(mp.body).arrayBuffer());
    const short = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": mp.contentType },
      body: all.subarray(0, all.byteLength - 200),
    });
    expect(await refusal(receiveMultipart(short, options()))).toEqual({ status: 400, message: "aborted" });

    const badHeader = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="doc"; filename="a"\r\nbroken',
    });
    expect((await refusal(receiveMultipart(badHeader, options()))).status).toBe(400);
    expect(await leftOnDisk()).toEqual([]);
  });

  it("keeps nothing when the client's TCP connection drops in the middle of a file", async () => {
    let outcome!: (value: unknown) => void;
    const settled = new Promise((resolve) => (outcome = resolve));
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      try {
        const form = await receiveMultipart(req, options());
        outcome({ stored: form.files.length });
        return Response.json({ success: true });
      } catch (err) {
        outcome(err);
        return Response.json({ success: false }, { status: 400 });
      }
    });
    try {
      const boundary = "----tcpdrop";
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="whole"\r\n\r\n`;
      const next = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="half"\r\n\r\n`;
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      const enc = new TextEncoder();
      const write = async (b: Uint8Array) => {
        for (let off = 0; off < b.byteLength;) off += await conn.write(b.subarray(off));
      };
      await write(enc.encode(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n`,
      ));
      await write(enc.encode(head));
      await write(bytes(400));
      await write(enc.encode(next));
      await write(bytes(300));
      // Wait until the server has stored the first file and started on the second, then hang up.
      for (let i = 0; i < 200 && !(await leftOnDisk()).some((f) => f.startsWith("b/")); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await leftOnDisk()).some((f) => f.startsWith("b/")), "the second file was being written").toBe(true);
      conn.close();

      const result = await settled;
      expect(result).toBeInstanceOf(ApiError);
      expect(result).toMatchObject({ status: 400, message: "aborted" });
      expect(await leftOnDisk()).toEqual([]);
    } finally {
      await server.shutdown();
    }
  });

  it("cuts off a body that stops sending in the middle of a file with 408, keeping nothing", async () => {
    const boundary = "----stall";
    const enc = new TextEncoder();
    const sent: Uint8Array[] = [
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="whole"\r\n\r\n`),
      bytes(400),
      enc.encode(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="half"\r\n\r\n`),
      bytes(300),
    ];
    let cancelled = false;
    const req = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: new ReadableStream<Uint8Array>({
        // After the first 700 bytes of file data the client goes quiet: the next read never settles.
        pull: (ctrl) => (sent.length ? ctrl.enqueue(sent.shift()!) : new Promise(() => {})),
        cancel: () => void (cancelled = true),
      }, { highWaterMark: 0 }),
      duplex: "half",
    } as RequestInit);
    const err = await refusal(receiveMultipart(req, options({ idleTimeoutMs: 300 })));
    expect(err.status).toBe(408);
    expect(err.message).toMatch(/^Загрузка прервана: данные не поступали 1 секунду\./);
    expect(cancelled, "the body is let go").toBe(true);
    expect(await leftOnDisk()).toEqual([]);
  });

  it("does not cut off a body that arrives slowly but steadily, nor count time the storage holds it back", async () => {
    const tick = () => new Promise((r) => setTimeout(r, 40));
    async function* slow(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 40; i++) {
        await tick();
        yield bytes(25, 3);
      }
    }
    // 40 chunks 40 ms apart take longer than the idle timeout of 1 s, each gap far shorter
    // (the margin keeps a busy machine's late timers from cutting it).
    const steady = await receiveMultipart(
      request([{ name: "doc", filename: "slow", data: () => ReadableStream.from(slow()) }]),
      options({ idleTimeoutMs: 1_000 }),
    );
    expect(steady.files.map((f) => f.size)).toEqual([1000]);
    await steady.discard();

    // A storage that makes the reader wait longer than the idle timeout while the client has
    // already sent everything: the client is not idle, the reader is.
    const slowStorage: FileStorage = {
      ...storage,
      async write(key, body, opts) {
        await new Promise((r) => setTimeout(r, 1_500));
        return storage.write(key, body, opts);
      },
    };
    // 4 MiB: more than every buffer between the body and the storage holds, so reading pauses.
    const big = 4 * 1024 * 1024;
    const held = await receiveMultipart(
      request([
        { name: "doc", filename: "held", data: () => repeatingStream(bytes(1), big) },
        { name: "doc", filename: "second", data: bytes(10) },
      ]),
      options({ idleTimeoutMs: 500, files: { doc: fileSpec({ storage: slowStorage, maxBytes: big }) } }),
    );
    expect(held.files.map((f) => f.size)).toEqual([big, 10]);
    await held.discard();
    expect(await leftOnDisk()).toEqual([]);
  });

  it("cuts off a body that trickles past the whole-request limit with 408, keeping nothing", async () => {
    let stop = false;
    async function* trickle(): AsyncGenerator<Uint8Array> {
      // Never silent for long, never done: only the whole-request limit can end it.
      while (!stop) {
        await new Promise((r) => setTimeout(r, 20));
        yield bytes(1, 4);
      }
    }
    const req = request([
      { name: "pic", filename: "whole", data: bytes(50) },
      { name: "doc", filename: "endless", data: () => ReadableStream.from(trickle()) },
    ]);
    try {
      const err = await refusal(receiveMultipart(req, options({ idleTimeoutMs: 5_000, maxDurationMs: 400 })));
      expect(err.status).toBe(408);
      expect(err.message).toMatch(/^Загрузка прервана: она шла дольше 1 минуты\./);
    } finally {
      stop = true;
    }
    expect(await leftOnDisk()).toEqual([]);
  });

  it("answers 408 to a client that stalls over TCP, and removes the files written for it", async () => {
    let outcome!: (value: unknown) => void;
    const settled = new Promise((resolve) => (outcome = resolve));
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      try {
        const form = await receiveMultipart(req, options({ idleTimeoutMs: 300 }));
        outcome({ stored: form.files.length });
        return Response.json({ success: true });
      } catch (err) {
        outcome(err);
        const status = err instanceof ApiError ? err.status : 500;
        return Response.json({ success: false, error: (err as Error).message }, { status });
      }
    });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      const boundary = "----tcpstall";
      const enc = new TextEncoder();
      const write = async (b: Uint8Array) => {
        for (let off = 0; off < b.byteLength;) off += await conn.write(b.subarray(off));
      };
      await write(enc.encode(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n`,
      ));
      await write(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="whole"\r\n\r\n`));
      await write(bytes(400));
      await write(
        enc.encode(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="half"\r\n\r\n`),
      );
      await write(bytes(300));
      // Then nothing more, with the connection left open.

      const result = await settled;
      expect(result).toBeInstanceOf(ApiError);
      expect(result).toMatchObject({ status: 408 });
      expect(await leftOnDisk()).toEqual([]);

      // The stalled client does get the answer.
      const buf = new Uint8Array(4096);
      let text = "";
      while (!text.includes("}")) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(text).toContain('"success":false');
      expect(text).toContain("данные не поступали");
    } finally {
      conn.close();
      await server.shutdown();
    }
  });

  it("lets a storage failure through as a server error, removing what was stored", async () => {
    const failing: FileStorage = {
      ...other,
      async write(_key, body) {
        const reader = body.getReader();
        await reader.read();
        await reader.cancel();
        throw new Error("disk full");
      },
    };
    const req = request([
      { name: "doc", filename: "ok", data: bytes(100) },
      { name: "pic", filename: "fails", data: bytes(100) },
    ]);
    const err = await receiveMultipart(
      req,
      options({ files: { doc: fileSpec(), pic: fileSpec({ storage: failing }) } }),
    )
      .then(() => null, (e) => e);
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe("disk full");
    expect(await leftOnDisk()).toEqual([]);
  });
});

describe("sniffImage", () => {
  it("tells JPEG and PNG by their first bytes and nothing else", () => {
    expect(sniffImage(JPEG)).toBe("jpg");
    expect(sniffImage(PNG)).toBe("png");
    expect(sniffImage(JPEG.subarray(0, 2))).toBeNull();
    expect(sniffImage(PNG.subarray(0, 7))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("GIF89a....."))).toBeNull();
    expect(sniffImage(new Uint8Array(0))).toBeNull();
  });
});
