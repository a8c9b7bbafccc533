/**
 * A local stand-in for the VK API of a community's messages (issue 36; docs/protocols.md, "VK
 * community messages"): `POST /method/messages.send` and `/method/messages.isMessagesFromGroupAllowed`
 * with a form body (or query) carrying `access_token` and `v`, answered as VK does:
 * `{"response": …}` or `{"error": {"error_code", "error_msg", "request_params"}}` with HTTP 200.
 * `messages.send` answers 901 to a user who has not allowed the community's messages, and drops a
 * repeat of a `random_id` to the same user (the first message's id again, nothing delivered), as VK
 * does. It also plays VK's side of the Callback API: `allow`/`deny` post `message_allow` /
 * `message_deny` to the server's `/api/vk/callback` with the community's secret. Test tooling only.
 */

export type VkFailure =
  /** VK's error with this code (6 too many requests, 9 flood, 29 rate limit, 901 no permission, …). */
  | { kind: "error"; code: number; message?: string }
  /** The message is delivered, then the connection ends before the answer: the caller sees a network error. */
  | { kind: "drop" };

/** The server's address, or an in-process app (a test's `createTestApp().app`). */
export type CallbackTarget = string | { request(path: string, init: RequestInit): Response | Promise<Response> };

export interface VkApiCall {
  method: string;
  params: Record<string, string>;
  /** How the double answered: `ok`, an error's code, `drop`, or `unauthorized` (a wrong token). */
  answer: "ok" | number | "drop" | "unauthorized";
}

export interface VkDelivered {
  peer_id: string;
  random_id: string;
  message: string;
  message_id: number;
}

export interface VkApiDouble {
  /** Base address, to be given as VK_API_URL. */
  url: string;
  groupId: number;
  token: string;
  secret: string;
  confirmation: string;
  /** The environment a server needs to talk to this double. */
  env: Record<string, string>;
  calls: VkApiCall[];
  /** Messages a user received (repeats of a `random_id` dropped). */
  delivered: VkDelivered[];
  /** Resolves when `n` messages have been delivered in all. */
  waitDelivered(n: number): Promise<void>;
  /** The next `messages.send` calls fail, one failure per call, in the order given. */
  failNext(...failures: VkFailure[]): void;
  /**
   * The user allows the community's messages (VK's allow-messages window with the site's `key`):
   * VK then posts `message_allow {user_id, key}` to `serverUrl/api/vk/callback`; its answer's text.
   */
  allow(serverUrl: CallbackTarget, userId: string, key?: string): Promise<{ status: number; text: string }>;
  /** The user withdraws it: `message_deny {user_id}` is posted; its answer's text. */
  deny(serverUrl: CallbackTarget, userId: string): Promise<{ status: number; text: string }>;
  /** Marks the user as allowing messages without posting anything (as if allowed before). */
  setAllowed(userId: string, allowed: boolean): void;
  /** Posts any Callback API body (the test's own `secret`, `group_id`, …) to the server; its answer. */
  post(serverUrl: CallbackTarget, body: unknown): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

const vkJson = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

const VK_MESSAGES: Record<number, string> = {
  5: "User authorization failed: invalid access_token",
  6: "Too many requests per second",
  9: "Flood control",
  29: "Rate limit reached",
  100: "One of the parameters specified was missing or invalid",
  901: "Can't send messages for users without permission",
};

export function startVkApiDouble(
  opts: { groupId?: number; token?: string; secret?: string; confirmation?: string } = {},
): Promise<VkApiDouble> {
  const groupId = opts.groupId ?? 222_000_111;
  const token = opts.token ?? "vk1.a.community-token-for-tests";
  const secret = opts.secret ?? "callback-secret-for-tests";
  const confirmation = opts.confirmation ?? "a1b2c3d4";
  const calls: VkApiCall[] = [];
  const delivered: VkDelivered[] = [];
  const failures: VkFailure[] = [];
  const allowed = new Set<string>();
  const seen = new Map<string, number>();
  let waiters: Array<{ n: number; resolve: () => void }> = [];
  let messageId = 0;

  const error = (code: number, params: Record<string, string>, message?: string) =>
    vkJson({
      error: {
        error_code: code,
        error_msg: message ?? VK_MESSAGES[code] ?? "Unknown error occurred",
        request_params: Object.entries(params).filter(([k]) => k !== "access_token").map(([key, value]) => ({
          key,
          value,
        })),
      },
    });

  function deliver(params: Record<string, string>): number {
    const dedupe = `${params.peer_id}:${params.random_id}`;
    const earlier = seen.get(dedupe);
    if (earlier !== undefined) return earlier;
    const id = ++messageId;
    seen.set(dedupe, id);
    delivered.push({
      peer_id: params.peer_id,
      random_id: params.random_id,
      message: params.message ?? "",
      message_id: id,
    });
    waiters = waiters.filter((w) => (delivered.length >= w.n ? (w.resolve(), false) : true));
    return id;
  }

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const match = /^\/method\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!match) return new Response("Not Found", { status: 404 });
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (req.method === "POST") Object.assign(params, Object.fromEntries(new URLSearchParams(await req.text())));
    const call: VkApiCall = { method: match[1], params, answer: "ok" };
    calls.push(call);
    if (params.access_token !== token) {
      call.answer = "unauthorized";
      return error(5, params);
    }
    if (!params.v) {
      call.answer = 8;
      return error(8, params, "Invalid request: v (version) is required");
    }
    if (call.method === "messages.isMessagesFromGroupAllowed") {
      if (params.group_id !== String(groupId) || !params.user_id) {
        call.answer = 100;
        return error(100, params);
      }
      return vkJson({ response: { is_allowed: allowed.has(params.user_id) ? 1 : 0 } });
    }
    if (call.method !== "messages.send") {
      call.answer = 3;
      return error(3, params, "Unknown method passed");
    }
    if (!params.peer_id || !params.random_id || !/^-?\d+$/.test(params.random_id) || !params.message) {
      call.answer = 100;
      return error(100, params);
    }
    const failure = failures.shift();
    if (failure?.kind === "error") {
      call.answer = failure.code;
      return error(failure.code, params, failure.message);
    }
    if (!allowed.has(params.peer_id)) {
      call.answer = 901;
      return error(901, params);
    }
    const id = deliver(params);
    if (failure?.kind === "drop") {
      call.answer = "drop";
      const cut = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"respon'));
          c.close();
        },
      });
      return new Response(cut, {
        status: 200,
        headers: { "content-type": "application/json", "content-length": "64" },
      });
    }
    return vkJson({ response: id });
  };

  async function post(server: CallbackTarget, body: unknown) {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const res = typeof server === "string"
      ? await fetch(`${server}/api/vk/callback`, init)
      : await server.request("/api/vk/callback", init);
    return { status: res.status, text: await res.text() };
  }
  const event = (type: string, object: Record<string, unknown>) => ({
    type,
    object,
    group_id: groupId,
    event_id: crypto.randomUUID().replaceAll("-", ""),
    v: "5.199",
    secret,
  });

  return new Promise((resolve) => {
    const server = Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: ({ port }) => {
        const url = `http://127.0.0.1:${port}`;
        resolve({
          url,
          groupId,
          token,
          secret,
          confirmation,
          env: {
            VK_GROUP_ID: String(groupId),
            VK_GROUP_TOKEN: token,
            VK_CALLBACK_SECRET: secret,
            VK_CALLBACK_CONFIRMATION: confirmation,
            VK_API_URL: url,
          },
          calls,
          delivered,
          waitDelivered(n) {
            if (delivered.length >= n) return Promise.resolve();
            return new Promise((done) => waiters.push({ n, resolve: done }));
          },
          failNext(...f) {
            failures.push(...f);
          },
          allow(serverUrl, userId, key) {
            allowed.add(userId);
            return post(serverUrl, event("message_allow", { user_id: Number(userId), ...(key ? { key } : {}) }));
          },
          deny(serverUrl, userId) {
            allowed.delete(userId);
            return post(serverUrl, event("message_deny", { user_id: Number(userId) }));
          },
          setAllowed(userId, on) {
            if (on) allowed.add(userId);
            else allowed.delete(userId);
          },
          post,
          stop: () => server.shutdown(),
        });
      },
      onError: () => new Response("double failed", { status: 500 }),
    }, handler);
  });
}
