/**
 * S3 storage against a real s3rver (left out with a notice when it cannot start, a failure under CI),
 * plus a few answers s3rver cannot give (ListMultipartUploads, retries, 200-with-error) through a
 * fetch double.
 */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createS3Storage, type S3StorageOptions } from "./s3-file-storage.ts";
import { S3Error, StorageNotFoundError } from "./s3-client.ts";
import { createPartPool, type PartPool } from "./s3-part-pool.ts";
import { TooLargeError } from "./file-storage.ts";
import { startS3ServerForTests } from "../testing/s3-server.ts";
import { nodeBodyFetch } from "./s3-body-transport.ts";

const MiB = 1024 * 1024;
const s3 = await startS3ServerForTests({ bucket: "np-test" });

/** Deterministic bytes (xorshift), so a stream of any length can be checked without keeping it. */
function patternStream(total: number, opts: { chunk?: number; failAfter?: number; seed?: number } = {}) {
  const chunk = opts.chunk ?? 64 * 1024;
  let state = opts.seed ?? 0x9e3779b9;
  let sent = 0;
  const hash = createHash("sha256");
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (opts.failAfter !== undefined && sent >= opts.failAfter) {
        ctrl.error(new Error("client went away"));
        return;
      }
      if (sent >= total) return ctrl.close();
      const n = Math.min(chunk, total - sent);
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        bytes[i] = state & 0xff;
      }
      hash.update(bytes);
      sent += n;
      ctrl.enqueue(bytes);
    },
  });
  return { stream, digest: () => hash.digest("hex") };
}

function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(ctrl) {
      if (bytes.byteLength) ctrl.enqueue(bytes);
      ctrl.close();
    },
  });
}

async function sha256OfStream(body: ReadableStream<Uint8Array>): Promise<{ hex: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { hex: hash.digest("hex"), size };
}

interface Recorded {
  method: string;
  url: URL;
  status: number;
}

/** A storage on the test server whose requests are recorded (method, address, answer status). */
function storageOn(extra: Partial<S3StorageOptions> = {}) {
  const requests: Recorded[] = [];
  const warnings: Array<{ msg: string; data?: Record<string, unknown> }> = [];
  const storage = createS3Storage({
    endpoint: s3!.endpoint,
    bucket: s3!.bucket,
    accessKeyId: s3!.accessKeyId,
    secretAccessKey: s3!.secretAccessKey,
    logger: { warn: (msg, data) => warnings.push({ msg, data }) },
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const res = await fetch(req);
      requests.push({ method: req.method, url: new URL(req.url), status: res.status });
      return res;
    },
    ...extra,
  });
  return { storage, requests, warnings };
}

describe.skipIf(!s3)("S3 storage on s3rver", () => {
  afterAll(async () => {
    await s3?.stop();
  });

  it("writes a small body with one PUT and reads it back whole, with its size and type", async () => {
    const { storage, requests } = storageOn();
    const text = new TextEncoder().encode("Привет, S3");
    expect(await storage.write("small/a.mp3", bytesStream(text))).toEqual({ size: text.byteLength });
    expect(requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(requests[0].url.pathname).toBe(`/${s3!.bucket}/small/a.mp3`);

    const got = await storage.read("small/a.mp3");
    expect(got.size).toBe(text.byteLength);
    expect(got.range).toBeUndefined();
    expect(got.contentType).toBe("audio/mpeg");
    expect(new Uint8Array(await new Response(got.body).arrayBuffer())).toEqual(text);

    const info = await storage.stat("small/a.mp3");
    expect(info?.size).toBe(text.byteLength);
    expect(info?.modifiedAt).toBeInstanceOf(Date);
    expect(storage.localPath("small/a.mp3")).toBeNull();
  });

  it("stores an empty body", async () => {
    const { storage } = storageOn();
    expect(await storage.write("small/empty.bin", bytesStream(new Uint8Array(0)))).toEqual({ size: 0 });
    expect((await storage.stat("small/empty.bin"))?.size).toBe(0);
  });

  it("reads byte ranges with 206 semantics: exactly the asked bytes, the total size, the range sent", async () => {
    const { storage } = storageOn();
    const all = new Uint8Array(1000).map((_, i) => (i * 7) & 0xff);
    await storage.write("range/r.bin", bytesStream(all));

    const mid = await storage.read("range/r.bin", { range: { start: 100, end: 199 } });
    expect(mid.range).toEqual({ start: 100, end: 199 });
    expect(mid.size).toBe(1000);
    expect(new Uint8Array(await new Response(mid.body).arrayBuffer())).toEqual(all.subarray(100, 200));

    const tail = await storage.read("range/r.bin", { range: { start: 990 } });
    expect(tail.range).toEqual({ start: 990, end: 999 });
    expect(new Uint8Array(await new Response(tail.body).arrayBuffer())).toEqual(all.subarray(990));

    // An end past the object is cut to the last byte, as HTTP says.
    const over = await storage.read("range/r.bin", { range: { start: 0, end: 5000 } });
    expect(over.range).toEqual({ start: 0, end: 999 });
    expect((await new Response(over.body).arrayBuffer()).byteLength).toBe(1000);

    const past = await storage.read("range/r.bin", { range: { start: 5000 } }).catch((e) => e);
    expect(past).toBeInstanceOf(S3Error);
    expect(past).toMatchObject({ status: 416, code: "InvalidRange" });

    await expect(storage.read("range/r.bin", { range: { start: 10, end: 5 } })).rejects.toBeInstanceOf(RangeError);
  });

  it("streams a body over 10 MB through a multipart upload of 5 MiB parts, content intact", async () => {
    const { storage, requests } = storageOn();
    const total = 12 * MiB + 12_345;
    const src = patternStream(total, { chunk: 100_000 });
    expect(await storage.write("big/track.mp3", src.stream)).toEqual({ size: total });
    const expected = src.digest();

    const calls = requests.map((r) => `${r.method} ${[...r.url.searchParams.keys()].sort().join("&")}`);
    expect(calls).toEqual([
      "POST uploads",
      "PUT partNumber&uploadId",
      "PUT partNumber&uploadId",
      "PUT partNumber&uploadId",
      "POST uploadId",
    ]);
    expect(requests.filter((r) => r.method === "PUT").map((r) => r.url.searchParams.get("partNumber"))).toEqual([
      "1",
      "2",
      "3",
    ]);

    expect((await storage.stat("big/track.mp3"))?.size).toBe(total);
    const back = await storage.read("big/track.mp3");
    expect(back.size).toBe(total);
    expect(await sha256OfStream(back.body)).toEqual({ hex: expected, size: total });

    // A range that spans the boundary between parts 1 and 2.
    const seam = await storage.read("big/track.mp3", { range: { start: 5 * MiB - 10, end: 5 * MiB + 9 } });
    const seamBytes = new Uint8Array(await new Response(seam.body).arrayBuffer());
    const whole = new Uint8Array(await new Response((await storage.read("big/track.mp3")).body).arrayBuffer());
    expect(seamBytes).toEqual(whole.subarray(5 * MiB - 10, 5 * MiB + 10));
  });

  it("a body that fails mid-stream leaves no object and no listed key, and the upload is aborted", async () => {
    const { storage, requests, warnings } = storageOn();
    const src = patternStream(20 * MiB, { failAfter: 7 * MiB });
    await expect(storage.write("aborted/x.mp3", src.stream)).rejects.toThrow("client went away");

    expect(requests.some((r) => r.method === "PUT" && r.url.searchParams.get("partNumber") === "1")).toBe(true);
    const abort = requests.find((r) => r.method === "DELETE");
    expect(abort?.url.searchParams.get("uploadId")).toBeTruthy();
    // s3rver does not implement AbortMultipartUpload (405): the failure is logged, not thrown over
    // the write's own error.
    if (abort!.status >= 400) expect(warnings[0].msg).toMatch(/abort/);

    expect(await storage.stat("aborted/x.mp3")).toBeNull();
    await expect(storage.read("aborted/x.mp3")).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await Array.fromAsync(storage.listKeys("aborted/"))).toEqual([]);
  });

  it("stops at maxBytes with TooLargeError and leaves nothing, in one PUT or mid-multipart", async () => {
    const { storage } = storageOn();
    await expect(storage.write("limit/small.bin", patternStream(3000).stream, { maxBytes: 2048 }))
      .rejects.toBeInstanceOf(TooLargeError);
    await expect(storage.write("limit/big.bin", patternStream(12 * MiB).stream, { maxBytes: 6 * MiB }))
      .rejects.toBeInstanceOf(TooLargeError);
    expect(await storage.stat("limit/small.bin")).toBeNull();
    expect(await storage.stat("limit/big.bin")).toBeNull();
    expect(await Array.fromAsync(storage.listKeys("limit/"))).toEqual([]);
    expect(await storage.write("limit/exact.bin", patternStream(2048).stream, { maxBytes: 2048 })).toEqual({
      size: 2048,
    });
  });

  it("writes take turns with a shared pool of part buffers: never more lent than it holds, all returned", async () => {
    const pool = createPartPool({ size: 1 });
    let maxLent = 0;
    let sawWaiting = false;
    // The stores see the pool through this, which notes how many buffers are out and who had to wait.
    const watched: PartPool = {
      ...pool,
      async acquire() {
        if (pool.stats().lent >= pool.size) sawWaiting = true;
        const buf = await pool.acquire();
        maxLent = Math.max(maxLent, pool.stats().lent);
        return buf;
      },
    };
    const { storage } = storageOn({ partPool: watched });
    const other = storageOn({ partPool: watched, prefix: "other/" }).storage;
    // A small body keeps to a buffer of its own: the pool is not touched.
    await storage.write("pool/small", bytesStream(new Uint8Array(200_000)));
    expect(pool.stats()).toEqual({ lent: 0, waiting: 0, kept: 0 });

    {
      const a = patternStream(12 * MiB, { seed: 1 });
      const b = patternStream(11 * MiB + 5, { seed: 2 });
      const c = patternStream(8 * MiB, { seed: 3, failAfter: 6 * MiB });
      const [ra, rb, rc] = await Promise.allSettled([
        storage.write("pool/a", a.stream),
        other.write("pool/b", b.stream),
        storage.write("pool/c", c.stream),
      ]);
      expect(ra.status).toBe("fulfilled");
      expect(rb.status).toBe("fulfilled");
      expect(rc.status).toBe("rejected");
      expect(await sha256OfStream((await storage.read("pool/a")).body)).toEqual({ hex: a.digest(), size: 12 * MiB });
      expect(await sha256OfStream((await other.read("pool/b")).body)).toEqual({ hex: b.digest(), size: 11 * MiB + 5 });
      expect(await storage.stat("pool/c")).toBeNull();
    }
    expect(maxLent).toBe(1);
    expect(sawWaiting).toBe(true);
    // The failed write gave its buffer back too; it is kept for the next write.
    expect(pool.stats()).toEqual({ lent: 0, waiting: 0, kept: 1 });
  });

  it("sends parts through node:http under their Content-Length, and the rest through fetch", async () => {
    const node = await nodeBodyFetch();
    expect(node).not.toBeNull();
    const sent: Array<{ method: string; url: URL; length: number; status: number }> = [];
    const { storage, requests } = storageOn({
      bodyFetch: async (url, init) => {
        const res = await node!(url, init);
        sent.push({ method: init.method, url: new URL(url), length: init.body.byteLength, status: res.status });
        return res;
      },
    });
    const body = patternStream(11 * MiB + 77, { seed: 5 });
    expect(await storage.write("node/big.mp3", body.stream)).toEqual({ size: 11 * MiB + 77 });
    expect(sent.map((r) => [r.method, r.url.searchParams.get("partNumber"), r.length, r.status])).toEqual([
      ["PUT", "1", 5 * MiB, 200],
      ["PUT", "2", 5 * MiB, 200],
      ["PUT", "3", MiB + 77, 200],
    ]);
    // Creating and completing the upload (small bodies) went through fetch.
    expect(requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(await sha256OfStream((await storage.read("node/big.mp3")).body)).toEqual({
      hex: body.digest(),
      size: 11 * MiB + 77,
    });
  });

  it("deletes, and a missing key is a not-found result (null stat, NotFound read, quiet delete)", async () => {
    const { storage } = storageOn();
    await storage.write("del/d.bin", bytesStream(new Uint8Array([1, 2, 3])));
    await storage.delete("del/d.bin");
    expect(await storage.stat("del/d.bin")).toBeNull();
    const err = await storage.read("del/d.bin").catch((e) => e);
    expect(err).toBeInstanceOf(StorageNotFoundError);
    expect(err).toBeInstanceOf(Deno.errors.NotFound);
    expect(err.key).toBe("del/d.bin");
    await storage.delete("del/never-was.bin");
    await storage.remove("del/never-was.bin");
  });

  it("lists keys under a prefix across ListObjectsV2 pages, with last-modified", async () => {
    const { storage, requests } = storageOn({ listPageSize: 2 });
    const before = Date.now() - 5_000;
    const keys = ["list/a.bin", "list/b.bin", "list/c/d.bin", "list/e.bin", "list/f.bin"];
    for (const k of keys) await storage.write(k, bytesStream(new TextEncoder().encode(k)));
    await storage.write("listed-not/z.bin", bytesStream(new Uint8Array([0])));
    requests.length = 0;

    const listed = await Array.fromAsync(storage.listKeys("list/"));
    expect(listed.map((o) => o.key)).toEqual(keys);
    expect(listed.map((o) => o.size)).toEqual(keys.map((k) => k.length));
    for (const o of listed) expect(o.modifiedAt.getTime()).toBeGreaterThan(before);
    const pages = requests.filter((r) => r.url.searchParams.get("list-type") === "2");
    expect(pages.length).toBe(3);
    expect(pages[0].url.searchParams.get("max-keys")).toBe("2");
    expect(pages[1].url.searchParams.get("continuation-token")).toBeTruthy();

    // The FileStorage view used by the sweep: complete objects, none partial (s3rver cannot list
    // unfinished uploads).
    const all = await Array.fromAsync(storage.list());
    expect(all.filter((e) => e.key.startsWith("list/")).map((e) => e.key)).toEqual(keys);
    expect(all.every((e) => !e.partial && e.modifiedAt instanceof Date)).toBe(true);
  });

  it("keeps stores with different prefixes apart in one bucket", async () => {
    const tracks = storageOn({ prefix: "tracks/" }).storage;
    const pub = storageOn({ prefix: "public/", publicUrl: "https://cdn.example.test/media/" }).storage;
    await tracks.write("same.bin", bytesStream(new Uint8Array([1])));
    await pub.write("same.bin", bytesStream(new Uint8Array([2, 2])));
    expect((await tracks.stat("same.bin"))?.size).toBe(1);
    expect((await pub.stat("same.bin"))?.size).toBe(2);
    expect((await Array.fromAsync(tracks.listKeys())).map((o) => o.key)).toEqual(["same.bin"]);
    expect(pub.publicUrl("avatars/x.jpg")).toBe("https://cdn.example.test/media/public/avatars/x.jpg");
    expect(tracks.publicUrl("same.bin")).toBeNull();
  });

  it("refuses keys the server would never generate", async () => {
    const { storage } = storageOn();
    await expect(storage.write("../etc/passwd", bytesStream(new Uint8Array(1)))).rejects.toThrow(/Unsafe/);
    await expect(storage.read("a b.mp3")).rejects.toThrow(/Unsafe/);
    await expect(storage.stat("/abs")).rejects.toThrow(/Unsafe/);
  });

  it("a bucket that does not exist is an S3Error, not a missing key", async () => {
    const { storage } = storageOn({ bucket: "no-such-bucket" });
    const err = await storage.read("x.bin").catch((e) => e);
    expect(err).toBeInstanceOf(S3Error);
    expect(err).not.toBeInstanceOf(StorageNotFoundError);
    expect(err).toMatchObject({ status: 404, code: "NoSuchBucket" });
  });
});

describe("S3 storage: answers s3rver does not give (fetch double)", () => {
  const base = { bucket: "b", accessKeyId: "AK", secretAccessKey: "SK", region: "eu-west-1" };

  it("addresses AWS virtual-hosted style without an endpoint, path-style with one", async () => {
    const urls: string[] = [];
    const fake: typeof fetch = (input, init) => {
      urls.push(new Request(input, init).url);
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    await createS3Storage({ ...base, fetch: fake }).delete("a/b.mp3");
    await createS3Storage({ ...base, endpoint: "http://minio.local:9000/", fetch: fake }).delete("a/b.mp3");
    expect(urls).toEqual(["https://b.s3.eu-west-1.amazonaws.com/a/b.mp3", "http://minio.local:9000/b/a/b.mp3"]);
  });

  it("lists unfinished multipart uploads as partial entries and remove() aborts them", async () => {
    const seen: string[] = [];
    const fake: typeof fetch = (input, init) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      if (url.searchParams.has("list-type")) {
        return Promise.resolve(
          new Response(
            `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><KeyCount>1</KeyCount><IsTruncated>false</IsTruncated><Contents><Key>t/done.mp3</Key><LastModified>2024-01-02T03:04:05.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>10</Size></Contents></ListBucketResult>`,
          ),
        );
      }
      if (url.searchParams.has("uploads") && !url.searchParams.has("key-marker")) {
        return Promise.resolve(
          new Response(
            `<ListMultipartUploadsResult><Bucket>b</Bucket><IsTruncated>true</IsTruncated><NextKeyMarker>t/half.mp3</NextKeyMarker><NextUploadIdMarker>u1</NextUploadIdMarker><Upload><Key>t/half.mp3</Key><UploadId>u1</UploadId><Initiator><ID>x</ID></Initiator><Initiated>2024-01-01T00:00:00.000Z</Initiated></Upload></ListMultipartUploadsResult>`,
          ),
        );
      }
      if (url.searchParams.has("uploads")) {
        return Promise.resolve(
          new Response(
            `<ListMultipartUploadsResult><IsTruncated>false</IsTruncated><Upload><Key>t/other.mp3</Key><UploadId>u.2~x</UploadId><Initiated>2024-01-01T00:00:01.000Z</Initiated></Upload></ListMultipartUploadsResult>`,
          ),
        );
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    const storage = createS3Storage({ ...base, prefix: "t/", fetch: fake });
    const entries = await Array.fromAsync(storage.list());
    expect(entries).toEqual([
      { key: "done.mp3", partial: false, modifiedAt: new Date("2024-01-02T03:04:05.000Z") },
      { key: "half.mp3#upload=u1", partial: true, modifiedAt: new Date("2024-01-01T00:00:00.000Z") },
      { key: "other.mp3#upload=u.2~x", partial: true, modifiedAt: new Date("2024-01-01T00:00:01.000Z") },
    ]);
    expect((await Array.fromAsync(storage.listKeys()))[0].etag).toBe('"abc"');
    seen.length = 0;
    await storage.remove("other.mp3#upload=u.2~x");
    expect(seen).toEqual(["DELETE /t/other.mp3?uploadId=u.2~x"]);
  });

  it("retries a 503 and a network error for a buffered body, then gives up with the S3 error", async () => {
    let calls = 0;
    const flaky: typeof fetch = () => {
      calls++;
      if (calls === 1) return Promise.reject(new TypeError("connection reset"));
      if (calls === 2) {
        return Promise.resolve(
          new Response("<Error><Code>SlowDown</Code><Message>m</Message></Error>", { status: 503 }),
        );
      }
      return Promise.resolve(new Response(null, { status: 200 }));
    };
    await createS3Storage({ ...base, fetch: flaky }).write("r.bin", bytesStream(new Uint8Array(3)));
    expect(calls).toBe(3);

    let failing = 0;
    const down: typeof fetch = () => {
      failing++;
      return Promise.resolve(
        new Response("<Error><Code>InternalError</Code><Message>oops</Message><RequestId>R1</RequestId></Error>", {
          status: 500,
        }),
      );
    };
    const err = await createS3Storage({ ...base, fetch: down, retries: 2 }).delete("r.bin").catch((e) => e);
    expect(failing).toBe(3);
    expect(err).toBeInstanceOf(S3Error);
    expect(err).toMatchObject({ status: 500, code: "InternalError", details: { requestId: "R1", key: "r.bin" } });
  });

  it("treats a CompleteMultipartUpload answered 200 with an <Error> body as a failure and aborts", async () => {
    const methods: string[] = [];
    const fake: typeof fetch = (input, init) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      methods.push(req.method);
      if (req.method === "POST" && url.searchParams.has("uploads")) {
        return Promise.resolve(
          new Response("<InitiateMultipartUploadResult><UploadId>U</UploadId></InitiateMultipartUploadResult>"),
        );
      }
      if (req.method === "PUT") return Promise.resolve(new Response(null, { headers: { ETag: '"e"' } }));
      if (req.method === "POST") {
        return Promise.resolve(
          new Response("<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>"),
        );
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    const err = await createS3Storage({ ...base, fetch: fake }).write("c.bin", patternStream(6 * MiB).stream).catch((
      e,
    ) => e);
    expect(err).toBeInstanceOf(S3Error);
    expect(err).toMatchObject({ status: 200, code: "InternalError" });
    expect(methods).toEqual(["POST", "PUT", "PUT", "POST", "DELETE"]);
  });
});
