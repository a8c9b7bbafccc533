import type { InferResponseType } from "hono/client";
import type { client } from "../api.ts";
import { tokens } from "../api.ts";
import { DEFAULT_BAN_MESSAGE } from "../../../domain/ban.ts";
import { TRANSFER_TEXTS as UPLOAD_TEXTS } from "./transfer-texts.ts";

/**
 * The upload's requests go through XMLHttpRequest: unlike fetch, it reports upload progress, so
 * these calls stay outside the typed client (docs/decisions/0135). `xhrSend` mirrors the client's
 * session rules for the site's own API (bearer token); the caller does the refresh-and-retry.
 */
export type UploadOutcome =
  | { kind: "success"; trackIds: number[] }
  | { kind: "banned"; message: string }
  | { kind: "expired" }
  | { kind: "error"; message: string };

export interface RawAnswer {
  status: number;
  body: Record<string, unknown> | null;
  /** True when the answer was not JSON at all. */
  unparsable: boolean;
  timedOut: boolean;
}

export interface XhrRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  /** A string is sent as JSON. */
  body?: Blob | string | null;
  /** Sends the site's bearer token and cookies; off for a presigned bucket address. */
  site: boolean;
  onProgress?: (loaded: number) => void;
  signal?: AbortSignal;
  /** Whole request, ms. */
  timeoutMs: number;
  /** The request is cut when its body sends nothing for this long (a dead connection), ms. */
  idleMs?: number;
}

/** One request; never rejects: no answer is status 0. */
export function xhrSend(req: XhrRequest): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    xhr.timeout = req.timeoutMs;
    xhr.withCredentials = req.site;
    if (req.site) {
      xhr.setRequestHeader("Accept", "application/json");
      const access = tokens.access;
      if (access) xhr.setRequestHeader("Authorization", `Bearer ${access}`);
      if (typeof req.body === "string") xhr.setRequestHeader("Content-Type", "application/json");
    }
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      if (!req.idleMs) return;
      clearTimeout(idle);
      idle = setTimeout(() => xhr.abort(), req.idleMs);
    };
    let done = false;
    const finish = (answer: RawAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      resolve(answer);
    };
    xhr.upload.onprogress = (e) => {
      watch();
      if (e.lengthComputable) req.onProgress?.(e.loaded);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> | null = null;
      let unparsable = false;
      try {
        const parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
        unparsable = body === null;
      } catch {
        unparsable = true;
      }
      finish({ status: xhr.status, body, unparsable, timedOut: false });
    };
    xhr.ontimeout = () => finish({ status: 0, body: null, unparsable: true, timedOut: true });
    xhr.onerror = () => finish({ status: 0, body: null, unparsable: true, timedOut: false });
    xhr.onabort = () => finish({ status: 0, body: null, unparsable: true, timedOut: false });
    req.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    watch();
    xhr.send(req.body ?? null);
  });
}

/** The success answer of POST /api/upload as the server's routes type it. */
type UploadAnswer = InferResponseType<typeof client.upload.$post>;

/** Turns the server's answer into what the page shows (spec 1 §8 "Upload"). */
export function interpretUpload(answer: RawAnswer): UploadOutcome {
  const { status, body } = answer;
  if (answer.timedOut) return { kind: "error", message: UPLOAD_TEXTS.timeout };
  if (status === 0) return { kind: "error", message: UPLOAD_TEXTS.failed };
  const serverText = typeof body?.error === "string" && body.error.trim()
    ? body.error
    : typeof body?.message === "string" && body.message.trim()
    ? body.message
    : null;
  if (status === 403) {
    const reason = typeof body?.ban_reason === "string" && body.ban_reason.trim() ? body.ban_reason : null;
    return { kind: "banned", message: serverText ?? reason ?? DEFAULT_BAN_MESSAGE };
  }
  if (status >= 200 && status < 300) {
    // Read by hand, but by the name the server's type gives it: a rename there breaks the check here.
    const ids = (body as Partial<Record<keyof UploadAnswer, unknown>> | null)?.track_ids;
    if (body?.success === true && Array.isArray(ids) && ids.every((id) => typeof id === "number")) {
      return { kind: "success", trackIds: ids as number[] };
    }
    return { kind: "error", message: UPLOAD_TEXTS.unknownAnswer };
  }
  // The user's own mistakes (a refused direction, a file the server will not take) carry a reason
  // worth reading; server failures and gateways get the generic text.
  if (status >= 400 && status < 500 && serverText && !answer.unparsable) return { kind: "error", message: serverText };
  return { kind: "error", message: UPLOAD_TEXTS.failed };
}
