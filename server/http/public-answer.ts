import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { responseWith, validPairs } from "./deno-header-list.ts";
import { accepts } from "./edge-middleware.ts";

/**
 * Public answers that are the same for everyone (GET /api/config, /api/faq, /api/slider, the HTML
 * shell), kept ready in memory: the bytes, their gzip and brotli copies and a content ETag, so a
 * request costs no query, no serialisation and no compression, and a browser that has the answer
 * gets `304 Not Modified` (issue 15, docs/decisions/0180-hot-paths.md). The cache that keeps them
 * is `KeptAnswers` (kept-answers.ts, decision 0213).
 */
export interface Answer {
  etag: string;
  contentType: string;
  identity: Uint8Array;
  gzip: Uint8Array | null;
  br: Uint8Array | null;
  /** What the copies were made from, to skip remaking them when a reload finds the same content. */
  source: string | Uint8Array;
}

/**
 * How old another instance's copy of a shared answer (FAQ, slider) may get: instances sharing one
 * database learn of a write made elsewhere by reading it again this often, while traffic lasts.
 */
export const SHARED_ANSWER_TTL_MS = 2_000;

/** Below this many bytes the answer is sent as it is: compressing it saves less than its headers. */
const COMPRESS_MIN = 1024;

/**
 * The brotli (quality 11) and gzip (level 9) copies of `bytes`, made once: for the answers kept in
 * memory and for the build's files (`scripts/vite.ts`). Null below COMPRESS_MIN.
 */
export function compressedCopies(bytes: Uint8Array): { br: Uint8Array; gzip: Uint8Array } | null {
  if (bytes.byteLength < COMPRESS_MIN) return null;
  return {
    br: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
    }),
    gzip: gzipSync(bytes, { level: 9 }),
  };
}

/** The weak ETag of some content: its SHA-256, the first 12 bytes in base64url (so every instance agrees). */
export async function contentTag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `W/"${btoa(String.fromCharCode(...digest.subarray(0, 12))).replace(/\+/g, "-").replace(/\//g, "_")}"`;
}

/** An answer for `content`; compressed copies are made once here unless given (a build's own). */
export async function makeAnswer(
  content: string | Uint8Array,
  contentType: string,
  given: { gzip?: Uint8Array | null; br?: Uint8Array | null } = {},
): Promise<Answer> {
  const identity = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const made = given.gzip && given.br ? null : compressedCopies(identity);
  const gzip = given.gzip ?? made?.gzip ?? null;
  const br = given.br ?? made?.br ?? null;
  return { etag: await contentTag(identity), contentType, identity, gzip, br, source: content };
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for this header). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const tag of ifNoneMatch.split(",")) {
    const t = tag.trim();
    if ((t.startsWith("W/") ? t.slice(2) : t) === bare) return true;
  }
  return false;
}

/**
 * The answer as the request asks for it: 304 when its ETag matches, else the brotli, gzip or plain
 * copy by `Accept-Encoding`. `Cache-Control: no-cache` by default: the browser keeps it and asks
 * again each time, so a change is seen at once and an unchanged answer costs a 304.
 */
export function sendAnswer(c: Context, answer: Answer, cacheControl = "no-cache"): Response {
  return answerFor(c.req.raw, answer, cacheControl);
}

/** `sendAnswer` for a bare request (the lanes in front of the router, server/http/lanes.ts). */
export function answerFor(req: Request, answer: Answer, cacheControl = "no-cache"): Response {
  const variants = variantsOf(answer, cacheControl);
  if (notModified(req.headers.get("if-none-match") ?? undefined, answer.etag)) {
    return responseWith(null, 304, variants.notModified);
  }
  let body = answer.identity;
  let pairs = variants.identity;
  const ae = answer.gzip || answer.br ? req.headers.get("accept-encoding") : undefined;
  if (ae) {
    if (answer.br && accepts(ae, "br")) {
      body = answer.br;
      pairs = variants.br;
    } else if (answer.gzip && accepts(ae, "gzip")) {
      body = answer.gzip;
      pairs = variants.gzip;
    }
  }
  if (req.method === "HEAD") return responseWith(null, 200, [...pairs, ["Content-Length", String(body.byteLength)]]);
  return responseWith(body as Uint8Array<ArrayBuffer>, 200, pairs);
}

type Pairs = readonly (readonly [string, string])[];
/** Each answer's header lists, made and validated once per answer and Cache-Control. */
const variantCache = new WeakMap<
  Answer,
  Map<string, { identity: Pairs; gzip: Pairs; br: Pairs; notModified: Pairs }>
>();

function variantsOf(answer: Answer, cacheControl: string) {
  let byControl = variantCache.get(answer);
  if (!byControl) variantCache.set(answer, byControl = new Map());
  let v = byControl.get(cacheControl);
  if (!v) {
    const common: [string, string][] = [["Cache-Control", cacheControl], ["ETag", answer.etag]];
    if (answer.gzip || answer.br) common.push(["Vary", "Accept-Encoding"]);
    const typed: [string, string][] = [["Content-Type", answer.contentType], ...common];
    v = {
      identity: validPairs(typed),
      gzip: validPairs([...typed, ["Content-Encoding", "gzip"]]),
      br: validPairs([...typed, ["Content-Encoding", "br"]]),
      notModified: validPairs(common),
    };
    byControl.set(cacheControl, v);
  }
  return v;
}

/** `sendAnswer` typed as the `c.json(value)` it stands for, so the typed client still knows the body. */
export function sendJsonAnswer<T>(
  c: Context,
  answer: Answer,
  cacheControl = "no-cache",
): Response & TypedResponse<JSONParsed<T>, 200, "json"> {
  return sendAnswer(c, answer, cacheControl) as Response & TypedResponse<JSONParsed<T>, 200, "json">;
}
