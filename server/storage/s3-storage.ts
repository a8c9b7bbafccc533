import { AwsV4Signer } from "aws4fetch";
import { getMimeType } from "hono/utils/mime";
import { createHash } from "node:crypto";
import { type BodyFetch, nodeBodyFetch } from "./s3-body-transport.ts";
import type { Logger } from "../lib/logger.ts";
import { type ByteRange, type FileStorage, isSafeKey, TooLargeError } from "./file-storage.ts";

/**
 * `FileStorage` on an S3-compatible object store (AWS S3, R2, MinIO, …), signed with aws4fetch.
 * Why aws4fetch rather than the AWS SDK, path-style addresses, the part size, and what the s3rver
 * test double does not check: docs/decisions/0110-s3-object-storage.md.
 *
 * Protocol references (AWS S3 API reference): PutObject, GetObject (Range), HeadObject, DeleteObject,
 * ListObjectsV2, CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload,
 * ListMultipartUploads; "Signature Version 4 for S3" (x-amz-content-sha256).
 */

export interface S3StorageOptions {
  /**
   * Base address of an S3-compatible service (`http://127.0.0.1:9000`, `https://<account>.r2.cloudflarestorage.com`).
   * When given, requests are path-style (`<endpoint>/<bucket>/<key>`); when empty, AWS virtual-hosted
   * style (`https://<bucket>.s3.<region>.amazonaws.com/<key>`).
   */
  endpoint?: string;
  region?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Session token of temporary credentials. */
  sessionToken?: string;
  /** Public base address of the bucket (CDN or website endpoint); enables `publicUrl(key)`. */
  publicUrl?: string;
  /** Prefix put before every key, so several stores can share a bucket (`tracks/`, `public/`). */
  prefix?: string;
  fetch?: typeof fetch;
  /**
   * Sends requests whose body is larger than 64 KiB (parts, PutObject). Default: node:http(s),
   * which sends the buffer without copying it (`s3-body-transport.ts`, decision 0112); `fetch`
   * when node:http is missing, or when a `fetch` is given and this is not (test doubles see every request).
   */
  bodyFetch?: BodyFetch;
  /** Bytes per multipart part; at least 5 MiB (S3's minimum for all parts but the last). */
  partSize?: number;
  /**
   * The part buffers writes borrow. Share one pool between stores to cap the whole process's
   * buffered parts (decision 0112); by default each store has its own pool of 16.
   */
  partPool?: PartPool;
  /** max-keys of one ListObjectsV2 page (S3 answers at most 1000). */
  listPageSize?: number;
  /** Extra attempts after a 5xx, a 429 or a network error (every request body here is in memory). */
  retries?: number;
  /** Warnings such as an abort that failed (the upload then waits for the sweep or a lifecycle rule). */
  logger?: Pick<Logger, "warn">;
  /** Signing time; tests pin it. */
  now?: () => Date;
}

export type { ByteRange };

export interface S3ObjectInfo {
  size: number;
  modifiedAt: Date | null;
  etag: string | null;
  contentType: string | null;
}

export interface S3ReadResult extends S3ObjectInfo {
  body: ReadableStream<Uint8Array>;
  /**
   * The bytes actually sent when the store answered 206 (inclusive end); absent for a whole-object
   * answer, which a store may give even when a range was asked for.
   */
  range?: { start: number; end: number };
}

export interface S3ListedObject {
  key: string;
  size: number;
  modifiedAt: Date;
  etag: string | null;
}

export interface S3Storage extends FileStorage {
  write(
    key: string,
    body: ReadableStream<Uint8Array>,
    opts?: { maxBytes?: number; contentType?: string },
  ): Promise<{ size: number }>;
  /** Throws `StorageNotFoundError` for a missing key, `S3Error` with status 416 for a range past the end. */
  read(key: string, opts?: { range?: ByteRange }): Promise<S3ReadResult>;
  stat(key: string): Promise<S3ObjectInfo | null>;
  /** Every object whose key starts with `prefix` (keys relative to the store's own prefix), page by page. */
  listKeys(prefix?: string): AsyncIterable<S3ListedObject>;
  /** The public address of a key, or null when no `publicUrl` is configured. */
  publicUrl(key: string): string | null;
}

/** An error answer from the store (or a malformed one), with S3's error code. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { requestId?: string; key?: string; actualSize?: number } = {},
  ) {
    super(`S3 ${status} ${code}: ${message}${details.key ? ` (key ${details.key})` : ""}`);
    this.name = "S3Error";
  }
}

/**
 * A key that is not there. It is a `Deno.errors.NotFound`, as the local store's read throws, so
 * callers written for either store map it to 404 the same way.
 */
export class StorageNotFoundError extends Deno.errors.NotFound {
  constructor(readonly key: string) {
    super(`No such storage key: ${key}`);
    this.name = "StorageNotFoundError";
  }
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Part buffers of 5 MiB the process may lend at once for uploads into the bucket; 2 are kept between
 * uploads. High on purpose: an upload that waits for a buffer costs more memory than the buffer,
 * because Deno's HTTP server keeps reading its body (~10–13 MB per stalled request, measured), so
 * the cap only bounds a burst (decision 0112).
 */
export const S3_PART_BUFFERS = 16;

/**
 * Part-sized buffers that writes borrow while they fill and send a multipart part (decision 0112).
 * At most `size` are lent at once: a write that finds none free waits, and while it waits it reads
 * nothing more of its body. Up to `keep` returned buffers are kept for the next write, which spares
 * the collector 5 MiB of garbage per upload; the others are let go, so a burst of uploads does not
 * leave its buffers behind.
 */
export interface PartPool {
  readonly partSize: number;
  readonly size: number;
  /** Resolves with a buffer of `partSize` bytes once one is free (in the order asked). */
  acquire(): Promise<Uint8Array>;
  release(buf: Uint8Array): void;
  /** Buffers lent out now, writes waiting for one, buffers kept free (for tests and the bench). */
  stats(): { lent: number; waiting: number; kept: number };
}

export function createPartPool(opts: { size: number; keep?: number; partSize?: number }): PartPool {
  const partSize = Math.max(MIN_PART_SIZE, opts.partSize ?? MIN_PART_SIZE);
  const size = Math.max(1, Math.floor(opts.size));
  const keep = Math.min(size, Math.max(0, Math.floor(opts.keep ?? 2)));
  const free: Uint8Array[] = [];
  const waiting: Array<(buf: Uint8Array) => void> = [];
  let lent = 0;
  return {
    partSize,
    size,
    acquire() {
      if (lent < size) {
        lent++;
        return Promise.resolve(free.pop() ?? new Uint8Array(partSize));
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(buf) {
      const next = waiting.shift();
      // Handed straight on: `lent` stays the same.
      if (next) return next(buf);
      lent--;
      if (free.length < keep) free.push(buf);
    },
    stats: () => ({ lent, waiting: waiting.length, kept: free.length }),
  };
}

/** A write keeps its first bytes in a buffer of its own up to this size: an avatar never waits for the pool. */
const SMALL_BODY = 1024 * 1024;
const MAX_PARTS = 10_000;
/** The hex SHA-256 of no bytes: the payload hash of GET, HEAD and DELETE. */
export const EMPTY_PAYLOAD_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/** How `list()` names an unfinished multipart upload: `<key>#upload=<UploadId>`. Keys never hold `#`. */
const UPLOAD_MARK = "#upload=";

// Same rule as `checkKey` in storage.ts: keys are generated by the server, never a user's file name.
function checkKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}

/** Path segment encoding S3 expects: RFC 3986 unreserved characters stay, `/` separates. */
export function encodeKey(key: string): string {
  return key.split("/").map((part) =>
    encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  ).join("/");
}

/** Stores made by `createS3Storage`, so callers holding a `FileStorage` can tell. */
const s3Stores = new WeakSet<FileStorage>();

/** True for a store `createS3Storage` made: it has range reads, ETags and `publicUrl`. */
export function isS3Storage(storage: FileStorage): storage is S3Storage {
  return s3Stores.has(storage);
}

export function createS3Storage(opts: S3StorageOptions): S3Storage {
  const region = opts.region || "us-east-1";
  const bucket = opts.bucket;
  if (!bucket) throw new Error("S3 storage needs a bucket");
  const prefix = opts.prefix ?? "";
  const doFetch = opts.fetch ?? fetch;
  const retries = opts.retries ?? 3;
  const pageSize = opts.listPageSize ?? 1000;
  const basePartSize = Math.max(MIN_PART_SIZE, opts.partSize ?? opts.partPool?.partSize ?? MIN_PART_SIZE);
  const pool = opts.partPool ?? createPartPool({ size: S3_PART_BUFFERS, partSize: basePartSize });
  /** Signing keys by day, as AwsClient keeps them. */
  const signingKeys = new Map<string, ArrayBuffer>();

  let bucketUrl: string;
  if (opts.endpoint) {
    const base = new URL(opts.endpoint);
    if (base.protocol !== "http:" && base.protocol !== "https:") throw new Error("S3 endpoint must be http(s)");
    bucketUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}/${encodeKey(bucket)}`;
  } else {
    // Virtual-hosted style: AWS has deprecated path-style requests to its own endpoints. A bucket
    // name with dots breaks TLS here; such buckets need an endpoint (path-style).
    bucketUrl = `https://${bucket}.s3.${region}.amazonaws.com`;
  }
  const publicBase = opts.publicUrl ? opts.publicUrl.replace(/\/+$/, "") : null;

  /** Builds `?a=1&uploads`: a sub-resource with no value is sent bare, as S3 documents it. */
  function url(fullKey: string | null, query: Record<string, string | undefined> = {}): string {
    const path = fullKey === null ? (opts.endpoint ? "" : "/") : `/${encodeKey(fullKey)}`;
    const qs = Object.entries(query)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => (v === "" ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join("&");
    return `${bucketUrl}${path}${qs ? `?${qs}` : ""}`;
  }

  // node:crypto hashes the bytes where they are; WebCrypto's digest copies its input first, which for
  // a 5 MiB part is one more 5 MiB of garbage (decision 0112).
  function sha256Hex(data: Uint8Array | string): string {
    return createHash("sha256").update(data).digest("hex");
  }

  const bodyFetchReady: Promise<BodyFetch | null> = opts.bodyFetch
    ? Promise.resolve(opts.bodyFetch)
    : opts.fetch
    ? Promise.resolve(null)
    : nodeBodyFetch();

  const datetime = () => (opts.now ?? (() => new Date()))().toISOString().replace(/[:-]|\.\d{3}/g, "");

  /**
   * One signed request. The payload is always hashed into x-amz-content-sha256 (never
   * UNSIGNED-PAYLOAD), so S3 refuses a body damaged on the way. Every body is in memory, so a 5xx,
   * a 429 or a network error is retried with back-off; error answers of the last attempt are returned.
   */
  async function send(
    method: string,
    target: string,
    init: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
  ): Promise<Response> {
    const payloadHash = init.body === undefined ? EMPTY_PAYLOAD_SHA256 : sha256Hex(init.body);
    const viaBodyFetch = init.body instanceof Uint8Array && init.body.byteLength > 64 * 1024 ? await bodyFetchReady : null;
    for (let attempt = 0;; attempt++) {
      // The signer (what AwsClient.sign uses) gets only the headers; the body goes straight to fetch,
      // which spares a copy of each part that building a Request would make.
      const signed = await new AwsV4Signer({
        url: target,
        method,
        headers: { ...init.headers, "x-amz-content-sha256": payloadHash },
        accessKeyId: opts.accessKeyId,
        secretAccessKey: opts.secretAccessKey,
        sessionToken: opts.sessionToken,
        service: "s3",
        region,
        cache: signingKeys,
        datetime: datetime(),
      }).sign();
      let res: Response;
      try {
        res = viaBodyFetch
          ? await viaBodyFetch(signed.url.toString(), { method, headers: signed.headers, body: init.body as Uint8Array })
          : await doFetch(signed.url.toString(), {
            method,
            headers: signed.headers,
            body: init.body as BodyInit | undefined,
          });
      } catch (err) {
        if (attempt >= retries) throw err;
        await backOff(attempt);
        continue;
      }
      if ((res.status >= 500 || res.status === 429) && attempt < retries) {
        await res.body?.cancel();
        await backOff(attempt);
        continue;
      }
      return res;
    }
  }

  const toFull = (key: string) => {
    checkKey(key);
    return prefix + key;
  };

  async function request(
    method: string,
    target: string,
    key: string | undefined,
    init: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
  ): Promise<Response> {
    const res = await send(method, target, init);
    if (!res.ok) throw await errorOf(res, key);
    return res;
  }

  async function createUpload(full: string, key: string, contentType: string): Promise<string> {
    const res = await request("POST", url(full, { uploads: "" }), key, { headers: { "content-type": contentType } });
    const xml = await res.text();
    const id = xmlText(xml, "UploadId");
    if (!id) throw new S3Error(res.status, "MalformedResponse", "CreateMultipartUpload answered no UploadId", { key });
    return id;
  }

  async function uploadPart(full: string, key: string, uploadId: string, n: number, bytes: Uint8Array): Promise<string> {
    const res = await request("PUT", url(full, { partNumber: String(n), uploadId }), key, { body: bytes });
    await res.body?.cancel();
    const etag = res.headers.get("etag");
    if (!etag) throw new S3Error(res.status, "MalformedResponse", `UploadPart ${n} answered no ETag`, { key });
    return etag;
  }

  async function completeUpload(full: string, key: string, uploadId: string, etags: string[]): Promise<void> {
    const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`);
    const body = `<CompleteMultipartUpload>${parts.join("")}</CompleteMultipartUpload>`;
    const res = await request("POST", url(full, { uploadId }), key, {
      headers: { "content-type": "application/xml" },
      body,
    });
    // S3 may answer 200 and still fail: the error then comes in the body (CompleteMultipartUpload docs).
    const xml = await res.text();
    if (hasElement(xml, "Error")) throw errorFromXml(res.status, xml, key);
  }

  async function abortUpload(full: string, key: string, uploadId: string): Promise<void> {
    const res = await send("DELETE", url(full, { uploadId }));
    if (res.ok || res.status === 404) return void (await res.body?.cancel());
    throw await errorOf(res, key);
  }

  async function* listUploads(): AsyncGenerator<{ key: string; uploadId: string; initiated: Date }> {
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    for (;;) {
      const res = await send("GET", url(null, { uploads: "", prefix, "key-marker": keyMarker, "upload-id-marker": idMarker }));
      // Not every S3-compatible service lists unfinished uploads (s3rver answers 501); a lifecycle
      // rule (AbortIncompleteMultipartUpload) is then the only sweep. See decision 0110.
      if (res.status === 501) return void (await res.body?.cancel());
      if (!res.ok) throw await errorOf(res);
      const xml = await res.text();
      for (const block of xmlElements(xml, "Upload")) {
        const key = xmlText(block, "Key");
        const uploadId = xmlText(block, "UploadId");
        if (key === null || !uploadId || !key.startsWith(prefix)) continue;
        yield { key: key.slice(prefix.length), uploadId, initiated: parseDate(xmlText(block, "Initiated")) ?? new Date(0) };
      }
      if (xmlText(xml, "IsTruncated") !== "true") return;
      keyMarker = xmlText(xml, "NextKeyMarker") ?? undefined;
      idMarker = xmlText(xml, "NextUploadIdMarker") ?? undefined;
      if (!keyMarker) throw new S3Error(res.status, "MalformedResponse", "ListMultipartUploads truncated without NextKeyMarker");
    }
  }

  const storage: S3Storage = {
    async write(key, body, wopts) {
      const full = toFull(key);
      const limit = wopts?.maxBytes;
      const contentType = wopts?.contentType ?? getMimeType(key) ?? "application/octet-stream";
      // S3 allows at most 10,000 parts, so a large limit asks for larger parts.
      const partSize = limit === undefined ? basePartSize : Math.max(basePartSize, Math.ceil(limit / MAX_PARTS));
      // Part buffers come from the shared pool, so writes in flight cost at most the pool whatever
      // their number (decision 0112). Only a limit past 50 GB asks for parts the pool does not hold.
      const pooled = partSize === pool.partSize;
      const ownMax = pooled ? Math.min(SMALL_BODY, partSize) : partSize;
      const reader = body.getReader();
      // The first bytes go to a buffer of the write's own, grown up to 1 MiB, so a small file (an
      // avatar) costs little and never waits for the pool; past that the write borrows a part buffer
      // and reuses it for every part (decision 0023: flat memory).
      let buf: Uint8Array = new Uint8Array(Math.min(64 * 1024, partSize));
      let borrowed = false;
      const giveBack = () => {
        if (borrowed) pool.release(buf);
        borrowed = false;
      };
      let filled = 0;
      let size = 0;
      let uploadId: string | null = null;
      const etags: string[] = [];
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (limit !== undefined && size > limit) throw new TooLargeError(limit);
          for (let off = 0; off < value.byteLength;) {
            if (filled === buf.byteLength) {
              let bigger: Uint8Array;
              if (buf.byteLength < ownMax) bigger = new Uint8Array(Math.min(ownMax, buf.byteLength * 2));
              else {
                // Reading stops while the write waits for a buffer: the client is held back.
                bigger = await pool.acquire();
                borrowed = true;
              }
              bigger.set(buf.subarray(0, filled));
              buf = bigger;
            }
            const n = Math.min(value.byteLength - off, buf.byteLength - filled);
            buf.set(value.subarray(off, off + n), filled);
            filled += n;
            off += n;
            if (filled === partSize) {
              // Reading stops while a part is sent: the sender is held back instead of buffering more.
              uploadId ??= await createUpload(full, key, contentType);
              etags.push(await uploadPart(full, key, uploadId, etags.length + 1, buf));
              filled = 0;
            }
          }
        }
        if (uploadId === null) {
          const res = await request("PUT", url(full), key, {
            headers: { "content-type": contentType },
            body: buf.subarray(0, filled),
          });
          giveBack();
          await res.body?.cancel();
          return { size };
        }
        if (filled > 0) etags.push(await uploadPart(full, key, uploadId, etags.length + 1, buf.subarray(0, filled)));
        giveBack();
        await completeUpload(full, key, uploadId, etags);
        return { size };
      } catch (err) {
        giveBack();
        await reader.cancel(err).catch(() => {});
        // The object appears only on CompleteMultipartUpload, so nothing is visible; aborting frees
        // the stored parts. If the abort fails too, list() reports the upload as partial for the sweep.
        if (uploadId !== null) {
          await abortUpload(full, key, uploadId).catch((abortErr) =>
            opts.logger?.warn("could not abort an S3 multipart upload", { key, uploadId, err: abortErr })
          );
        }
        throw err;
      }
    },

    async read(key, ropts) {
      const headers: Record<string, string> = {};
      const range = ropts?.range;
      if (range) {
        if (!Number.isSafeInteger(range.start) || range.start < 0 ||
          (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < range.start))) {
          throw new RangeError(`Bad byte range ${range.start}-${range.end ?? ""}`);
        }
        headers.range = `bytes=${range.start}-${range.end ?? ""}`;
      }
      const res = await request("GET", url(toFull(key)), key, { headers });
      if (!res.body) throw new S3Error(res.status, "MalformedResponse", "GetObject answered no body", { key });
      const info = infoOf(res);
      if (res.status === 206) {
        const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers.get("content-range") ?? "");
        if (!m || m[3] === "*") {
          await res.body.cancel();
          throw new S3Error(206, "MalformedResponse", "206 without a usable Content-Range", { key });
        }
        return { ...info, size: Number(m[3]), body: res.body, range: { start: Number(m[1]), end: Number(m[2]) } };
      }
      return { ...info, body: res.body };
    },

    async stat(key) {
      const res = await send("HEAD", url(toFull(key)));
      // HEAD answers carry no body. Note: AWS answers 403, not 404, for a missing key when the
      // credentials lack s3:ListBucket; decision 0110 asks for that permission.
      if (res.status === 404) return null;
      if (!res.ok) throw await errorOf(res, key);
      return infoOf(res);
    },

    async delete(key) {
      // S3 answers 204 whether or not the key existed, like the local store ignoring NotFound.
      const res = await request("DELETE", url(toFull(key)), key);
      await res.body?.cancel();
    },

    localPath: () => null,

    async *listKeys(under = "") {
      let token: string | undefined;
      for (;;) {
        const res = await request("GET", url(null, {
          "list-type": "2",
          prefix: prefix + under,
          "max-keys": String(pageSize),
          "continuation-token": token,
        }), undefined);
        const xml = await res.text();
        for (const block of xmlElements(xml, "Contents")) {
          const key = xmlText(block, "Key");
          if (key === null || !key.startsWith(prefix)) continue;
          yield {
            key: key.slice(prefix.length),
            size: Number(xmlText(block, "Size") ?? 0),
            modifiedAt: parseDate(xmlText(block, "LastModified")) ?? new Date(0),
            etag: xmlText(block, "ETag"),
          };
        }
        if (xmlText(xml, "IsTruncated") !== "true") return;
        token = xmlText(xml, "NextContinuationToken") ?? undefined;
        if (!token) throw new S3Error(res.status, "MalformedResponse", "ListObjectsV2 truncated without NextContinuationToken");
      }
    },

    async *list() {
      for await (const o of storage.listKeys()) yield { key: o.key, partial: false, modifiedAt: o.modifiedAt };
      for await (const u of listUploads()) {
        yield { key: `${u.key}${UPLOAD_MARK}${u.uploadId}`, partial: true, modifiedAt: u.initiated };
      }
    },

    async remove(key) {
      const mark = key.indexOf(UPLOAD_MARK);
      if (mark < 0) return await storage.delete(key);
      const objectKey = key.slice(0, mark);
      const uploadId = key.slice(mark + UPLOAD_MARK.length);
      if (!uploadId) throw new Error(`Bad partial key: ${key}`);
      // Not checkKey: an unfinished upload may have any key; it is only ever aborted, never read.
      await abortUpload(prefix + objectKey, objectKey, uploadId);
    },

    publicUrl(key) {
      return publicBase === null ? null : `${publicBase}/${encodeKey(toFull(key))}`;
    },
  };
  s3Stores.add(storage);
  return storage;
}

function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * 100 * 2 ** attempt;
  return new Promise((r) => setTimeout(r, ms));
}

function infoOf(res: Response): S3ObjectInfo {
  return {
    size: Number(res.headers.get("content-length") ?? 0),
    modifiedAt: parseDate(res.headers.get("last-modified")),
    etag: res.headers.get("etag"),
    contentType: res.headers.get("content-type"),
  };
}

function parseDate(s: string | null): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An S3 error answer as a typed error; a missing key (NoSuchKey) as `StorageNotFoundError`. */
async function errorOf(res: Response, key?: string): Promise<Error> {
  // Error documents are small; a proxy's HTML page could be big, so only the head is read.
  let text = "";
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    while (text.length < 16_384) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel().catch(() => {});
  }
  const err = hasElement(text, "Error")
    ? errorFromXml(res.status, text, key)
    // HEAD answers have no body; some services name the code in a header.
    : new S3Error(res.status, res.headers.get("x-amz-error-code") ?? `Http${res.status}`, res.statusText || "no error document", {
      key,
      requestId: res.headers.get("x-amz-request-id") ?? undefined,
    });
  if (err instanceof S3Error && err.code === "NoSuchKey" && key !== undefined) return new StorageNotFoundError(key);
  return err;
}

function errorFromXml(status: number, xml: string, key?: string): S3Error {
  const size = xmlText(xml, "ActualObjectSize");
  return new S3Error(status, xmlText(xml, "Code") ?? `Http${status}`, xmlText(xml, "Message") ?? "", {
    key,
    requestId: xmlText(xml, "RequestId") ?? undefined,
    actualSize: size === null ? undefined : Number(size),
  });
}

// --- A small reader for S3's XML answers --------------------------------------------------------
// S3's answers are flat, machine-written documents: elements with text, no mixed content, no CDATA,
// and the elements read here (Contents, Upload, Error) never nest inside themselves. Matching
// `<Name>` or `<Name attr…>` exactly (not `<NameMore>`) and decoding entities is all they need.

function openTag(name: string): string {
  return `<${name}(?:\\s[^>]*)?>`;
}

function hasElement(xml: string, name: string): boolean {
  return new RegExp(`${openTag(name)}|<${name}\\s*/>`).test(xml);
}

/** The decoded text of the first `<name>` element, "" for an empty one, null when absent. */
export function xmlText(xml: string, name: string): string | null {
  const m = new RegExp(`${openTag(name)}([\\s\\S]*?)</${name}>|<${name}(?:\\s[^>]*)?/>`).exec(xml);
  if (!m) return null;
  return decodeXml(m[1] ?? "");
}

/** The inner markup of every `<name>` element. */
export function xmlElements(xml: string, name: string): string[] {
  return Array.from(xml.matchAll(new RegExp(`${openTag(name)}([\\s\\S]*?)</${name}>`, "g")), (m) => m[1]);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] !== "#") return ENTITIES[e];
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
  });
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
