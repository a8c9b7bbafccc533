import { AwsV4Signer } from "aws4fetch";
import { createHash } from "node:crypto";
import { type BodyFetch, nodeBodyFetch } from "./s3-body-transport.ts";

/**
 * The signed client `s3-file-storage.ts` stands on: the bucket's address (path-style with an
 * endpoint, else AWS virtual-hosted style), Signature Version 4 with aws4fetch's signer, retries,
 * S3's error answers as typed errors, and a small reader for its XML. It knows nothing of key
 * prefixes, multipart parts or `FileStorage`. Why aws4fetch rather than the AWS SDK, and path-style
 * addresses: docs/decisions/0110-s3-object-storage.md. "Signature Version 4 for S3"
 * (x-amz-content-sha256) is checked by s3-signer.test.ts.
 */

/** How to reach one bucket and sign for it. */
export interface S3ClientOptions {
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
  fetch?: typeof fetch;
  /**
   * Sends requests whose body is larger than 64 KiB (parts, PutObject). Default: node:http(s),
   * which sends the buffer without copying it (`s3-body-transport.ts`, decision 0112); `fetch`
   * when node:http is missing, or when a `fetch` is given and this is not (test doubles see every request).
   */
  bodyFetch?: BodyFetch;
  /** Extra attempts after a 5xx, a 429 or a network error (every request body here is in memory). */
  retries?: number;
  /** Signing time; tests pin it. */
  now?: () => Date;
}

export type S3RequestInit = { headers?: Record<string, string>; body?: Uint8Array | string };

export interface S3Client {
  /** The address of a key (`null`: the bucket itself) with a query. */
  url(fullKey: string | null, query?: Record<string, string | undefined>): string;
  /** One signed request, retried where that is safe; error answers of the last attempt are returned. */
  send(method: string, target: string, init?: S3RequestInit): Promise<Response>;
  /** `send`, with an error answer thrown (`errorOf`: `S3Error`, or `StorageNotFoundError` for a missing key). */
  request(method: string, target: string, key: string | undefined, init?: S3RequestInit): Promise<Response>;
  /**
   * A presigned address (query-string SigV4, UNSIGNED-PAYLOAD) that lets whoever holds it send one
   * `method` request to `target` for `expiresS` seconds without credentials: the browser's part PUTs
   * (issue 26). AWS: "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)".
   */
  presign(method: string, target: string, expiresS: number): Promise<string>;
}

export interface S3ObjectInfo {
  size: number;
  modifiedAt: Date | null;
  etag: string | null;
  contentType: string | null;
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

/** The hex SHA-256 of no bytes: the payload hash of GET, HEAD and DELETE. */
export const EMPTY_PAYLOAD_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** Path segment encoding S3 expects: RFC 3986 unreserved characters stay, `/` separates. */
export function encodeKey(key: string): string {
  return key.split("/").map((part) =>
    encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  ).join("/");
}

export function createS3Client(opts: S3ClientOptions): S3Client {
  const region = opts.region || "us-east-1";
  const bucket = opts.bucket;
  if (!bucket) throw new Error("S3 storage needs a bucket");
  const doFetch = opts.fetch ?? fetch;
  const retries = opts.retries ?? 3;
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

  /** Signs with this client's credentials, region, key cache and clock (headers, or the query string). */
  const sign = (req: { url: string; method: string; headers?: Record<string, string>; signQuery?: boolean }) =>
    new AwsV4Signer({
      ...req,
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      sessionToken: opts.sessionToken,
      service: "s3",
      region,
      cache: signingKeys,
      datetime: datetime(),
    }).sign();

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
    const viaBodyFetch = init.body instanceof Uint8Array && init.body.byteLength > 64 * 1024
      ? await bodyFetchReady
      : null;
    for (let attempt = 0;; attempt++) {
      // The signer (what AwsClient.sign uses) gets only the headers; the body goes straight to fetch,
      // which spares a copy of each part that building a Request would make.
      const signed = await sign({
        url: target,
        method,
        headers: { ...init.headers, "x-amz-content-sha256": payloadHash },
      });
      let res: Response;
      try {
        res = viaBodyFetch
          ? await viaBodyFetch(signed.url.toString(), {
            method,
            headers: signed.headers,
            body: init.body as Uint8Array,
          })
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

  async function presign(method: string, target: string, expiresS: number): Promise<string> {
    const address = new URL(target);
    // S3 allows at most 7 days.
    address.searchParams.set("X-Amz-Expires", String(Math.max(1, Math.min(604_800, Math.floor(expiresS)))));
    const signed = await sign({ url: address.toString(), method, signQuery: true });
    return signed.url.toString();
  }

  return { url, send, request, presign };
}

function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * 100 * 2 ** attempt;
  return new Promise((r) => setTimeout(r, ms));
}

export function infoOf(res: Response): S3ObjectInfo {
  return {
    size: Number(res.headers.get("content-length") ?? 0),
    modifiedAt: parseDate(res.headers.get("last-modified")),
    etag: res.headers.get("etag"),
    contentType: res.headers.get("content-type"),
  };
}

export function parseDate(s: string | null): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An S3 error answer as a typed error; a missing key (NoSuchKey) as `StorageNotFoundError`. */
export async function errorOf(res: Response, key?: string): Promise<Error> {
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
    : new S3Error(
      res.status,
      res.headers.get("x-amz-error-code") ?? `Http${res.status}`,
      res.statusText || "no error document",
      {
        key,
        requestId: res.headers.get("x-amz-request-id") ?? undefined,
      },
    );
  if (err instanceof S3Error && err.code === "NoSuchKey" && key !== undefined) return new StorageNotFoundError(key);
  return err;
}

export function errorFromXml(status: number, xml: string, key?: string): S3Error {
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

export function hasElement(xml: string, name: string): boolean {
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

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
