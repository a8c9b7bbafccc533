import type { Config } from "../../config.ts";

/**
 * The one call to the VK API for the community's messages (issue 36; docs/protocols.md, "VK
 * community messages"): `POST <VK_API_URL>/method/<name>` with a form body carrying the community
 * token and `v`. VK answers `{"response": …}` or `{"error": {"error_code", "error_msg"}}`. Every call
 * of this process waits for its turn in one pace of at most `VK_CALLS_PER_SECOND` (the community
 * token's limit); the sender also keeps the community's sends under it across instances (sender.ts).
 * The token is never logged: an error's text has it replaced.
 */

export const VK_API_VERSION = "5.199";
/** VK lets a community token make about 20 calls a second. */
export const VK_CALLS_PER_SECOND = 20;

export type VkReply =
  | { kind: "response"; response: unknown }
  | { kind: "error"; code: number; message: string }
  /** Refused, reset, timed out, cut off, not VK's JSON: VK may or may not have acted. */
  | { kind: "network"; message: string };

export type VkCaller = (method: string, params: Record<string, string | number>) => Promise<VkReply>;

/**
 * At most `limit` starts in any `windowMs`: a caller waits for the oldest start in the window to
 * leave it. In process; `sleep` and `now` given by tests.
 */
export function createPace(
  limit: number,
  windowMs: number,
  now: () => number = () => Date.now(),
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
) {
  const starts: number[] = [];
  let chain: Promise<void> = Promise.resolve();
  return {
    /** Resolves when a call may start (in the order asked). */
    turn(): Promise<void> {
      const mine = chain.then(async () => {
        for (;;) {
          const t = now();
          while (starts.length && starts[0] <= t - windowMs) starts.shift();
          if (starts.length < limit) {
            starts.push(t);
            return;
          }
          await sleep(starts[0] + windowMs - t);
        }
      });
      chain = mine.catch(() => {});
      return mine;
    },
  };
}

export function createVkCaller(
  fetchFn: typeof fetch,
  vk: NonNullable<Config["vkMessages"]>,
  opts: { timeoutMs?: number; pace?: ReturnType<typeof createPace> } = {},
): VkCaller {
  const pace = opts.pace ?? createPace(VK_CALLS_PER_SECOND, 1_000);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const redact = (text: string) => text.replaceAll(vk.token, "<token>");
  return async (method, params) => {
    await pace.turn();
    const body = new URLSearchParams({ access_token: vk.token, v: VK_API_VERSION });
    for (const [k, v] of Object.entries(params)) body.set(k, String(v));
    let answer: { response?: unknown; error?: { error_code?: unknown; error_msg?: unknown } } | null;
    try {
      const res = await fetchFn(`${vk.apiUrl}/method/${method}`, {
        method: "POST",
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      try {
        answer = JSON.parse(text);
      } catch {
        return { kind: "network", message: `HTTP ${res.status}: not VK's JSON` };
      }
    } catch (err) {
      return { kind: "network", message: redact(`network: ${(err as Error)?.message ?? String(err)}`) };
    }
    if (answer && typeof answer === "object" && "response" in answer) {
      return { kind: "response", response: answer.response };
    }
    const code = Number(answer?.error?.error_code);
    if (Number.isInteger(code)) {
      return { kind: "error", code, message: redact(String(answer?.error?.error_msg ?? "no message")) };
    }
    return { kind: "network", message: "an answer with neither response nor error" };
  };
}
