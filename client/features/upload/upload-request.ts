import type { Direction } from "../../../domain/directions.ts";
import type { InferResponseType } from "hono/client";
import { type client, refreshSession, tokens } from "../../lib/api.ts";
import { DEFAULT_BAN_MESSAGE } from "../../../domain/ban.ts";
import { UPLOAD_TEXTS, UPLOAD_TIMEOUT_MS } from "./upload-rules.ts";

/**
 * POST /api/upload with XMLHttpRequest: unlike fetch, it reports upload progress, so this call stays
 * outside the typed client (docs/decisions/0135). It mirrors the client's session rules: bearer
 * token, one refresh-and-retry on a 401.
 */
export type UploadOutcome =
  | { kind: "success"; trackIds: number[] }
  | { kind: "banned"; message: string }
  | { kind: "expired" }
  | { kind: "error"; message: string };

interface RawAnswer {
  status: number;
  body: Record<string, unknown> | null;
  /** True when the answer was not JSON at all. */
  unparsable: boolean;
  timedOut: boolean;
}

function sendOnce(
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/upload");
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    const access = tokens.access;
    if (access) xhr.setRequestHeader("Authorization", `Bearer ${access}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
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
      resolve({ status: xhr.status, body, unparsable, timedOut: false });
    };
    xhr.ontimeout = () => resolve({ status: 0, body: null, unparsable: true, timedOut: true });
    xhr.onerror = () => resolve({ status: 0, body: null, unparsable: true, timedOut: false });
    xhr.onabort = () => resolve({ status: 0, body: null, unparsable: true, timedOut: false });
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
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

export async function uploadTracks(
  files: readonly File[],
  directions: readonly Direction[],
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadOutcome> {
  const form = new FormData();
  // Directions first: the server then refuses a paused or capped direction before storing a byte.
  for (const d of directions) form.append("directions", d);
  for (const f of files) form.append("files", f, f.name);
  let answer = await sendOnce(form, onProgress, signal);
  if (answer.status === 401) {
    const outcome = tokens.refresh ? await refreshSession() : "refused";
    // No answer to the refresh is a failed upload, not the end of the session.
    if (outcome === "unreachable") return { kind: "error", message: UPLOAD_TEXTS.failed };
    if (outcome === "refused") return { kind: "expired" };
    answer = await sendOnce(form, onProgress, signal);
    if (answer.status === 401) return { kind: "expired" };
  }
  return interpretUpload(answer);
}
