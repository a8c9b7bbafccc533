/**
 * e2e kit: a front proxy of our own, as a host puts in front of an instance (issue 26). It refuses
 * any request body over `maxBodyBytes` with 413 before a byte reaches the server, as nginx's
 * `client_max_body_size 32m` and Cloud Run's 32 MiB HTTP/1 limit do, forwards the rest, counts the
 * resumable upload's parts that reach the server, and can cut the connection of chosen requests (a
 * dropped mobile connection: the browser gets no answer at all).
 */

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The query string, `?…` or "". */
  search: string;
  /** Content-Length of the body (0 when none was declared). */
  bytes: number;
}

export interface BodyLimitProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Where requests go; set once the server behind it has started. */
  target: string;
  /** Requests passed on, and the server's status for each. */
  passed: (ProxiedRequest & { status: number })[];
  /** Requests refused for their size (413). */
  refused: ProxiedRequest[];
  /** Requests whose connection was cut. */
  dropped: ProxiedRequest[];
  /** Decides per request whether its connection is cut instead of passed on. */
  drop: (req: ProxiedRequest) => boolean;
  /**
   * Decides per request whether only its first bytes go on (a number: how many) before the
   * browser's connection is cut: what a cut leaves behind it, a part the store keeps short (issue 31).
   */
  truncate: (req: ProxiedRequest) => number | null;
  /** Requests passed on short, with how many bytes went and the status behind the proxy. */
  truncated: (ProxiedRequest & { sent: number; status: number })[];
  /**
   * Part numbers of the resumable upload's parts accepted behind the proxy, in order: by the server's
   * part endpoint, or (a proxy in front of the bucket) by S3's UploadPart (`?partNumber=n&uploadId=…`).
   */
  partsAccepted(): number[];
  /** Resolves when the proxy has next recorded a request (passed, refused, dropped or truncated). */
  changed(): Promise<void>;
  stop(): Promise<void>;
}

const PART_PATH = /^\/api\/upload\/resumable\/[^/]+\/parts\/(\d+)$/;

/** The part number a request sends, or 0 when it sends none. */
export function partNumber(r: Pick<ProxiedRequest, "path" | "search">): number {
  const endpoint = PART_PATH.exec(r.path);
  if (endpoint) return Number(endpoint[1]);
  const query = new URLSearchParams(r.search);
  return query.has("uploadId") ? Number(query.get("partNumber") ?? 0) : 0;
}

export function startBodyLimitProxy(opts: { maxBodyBytes: number }): BodyLimitProxy {
  const ac = new AbortController();
  let waiters: (() => void)[] = [];
  /** Wakes whoever waits on `changed()`: a request was recorded. */
  const recorded = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const proxy: BodyLimitProxy = {
    url: "",
    target: "",
    passed: [],
    refused: [],
    dropped: [],
    drop: () => false,
    truncate: () => null,
    truncated: [],
    partsAccepted: () =>
      proxy.passed.filter((r) => r.method === "PUT" && r.status === 200).map(partNumber).filter((n) => n > 0),
    changed: () => new Promise<void>((resolve) => waiters.push(resolve)),
    stop: async () => {
      ac.abort();
      await server.finished;
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const declared = Number(req.headers.get("content-length") ?? "0");
    const seen: ProxiedRequest = { method: req.method, path: url.pathname, search: url.search, bytes: declared };
    if (declared > opts.maxBodyBytes) {
      proxy.refused.push(seen);
      recorded();
      await req.body?.cancel().catch(() => {});
      return new Response("<html><body><h1>413 Request Entity Too Large</h1></body></html>", {
        status: 413,
        headers: { "Content-Type": "text/html", Connection: "close" },
      });
    }
    const keep = proxy.truncate(seen);
    if (keep !== null && req.body) {
      const head = await firstBytes(req.body, keep);
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.set("content-length", String(head.length));
      const upstream = await fetch(`${proxy.target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: head,
      });
      await upstream.body?.cancel();
      proxy.truncated.push({ ...seen, sent: head.length, status: upstream.status });
      recorded();
      return brokenResponse();
    }
    if (proxy.drop(seen)) {
      proxy.dropped.push(seen);
      recorded();
      // Take a little of the body, then break the connection: no status reaches the browser.
      const reader = req.body?.getReader();
      await reader?.read().catch(() => {});
      await reader?.cancel().catch(() => {});
      return brokenResponse();
    }
    // A body without a declared length is counted as it passes and cut at the limit.
    let body: ReadableStream<Uint8Array> | null = req.body;
    if (body && !req.headers.has("content-length")) {
      let total = 0;
      body = body.pipeThrough(
        new TransformStream({
          transform(chunk, controller) {
            total += chunk.length;
            if (total > opts.maxBodyBytes) controller.error(new Error("body over the limit"));
            else controller.enqueue(chunk);
          },
        }),
      );
    }
    const headers = new Headers(req.headers);
    headers.delete("host");
    headers.set("accept-encoding", "identity");
    const upstream = await fetch(`${proxy.target}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body,
      redirect: "manual",
    });
    proxy.passed.push({ ...seen, status: upstream.status });
    recorded();
    return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
  });
  proxy.url = `http://127.0.0.1:${server.addr.port}`;
  return proxy;
}

/** An answer whose body breaks at once: no status reaches the browser. */
function brokenResponse(): Response {
  return new Response(
    new ReadableStream({
      pull(controller) {
        controller.error(new Error("connection dropped by the e2e proxy"));
      },
    }),
  );
}

/** The first `n` bytes of a body (fewer if it ends first); the rest is not read. */
async function firstBytes(body: ReadableStream<Uint8Array>, n: number): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(n);
  let at = 0;
  const reader = body.getReader();
  while (at < n) {
    const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (r.done) break;
    const take = Math.min(r.value.length, n - at);
    out.set(r.value.subarray(0, take), at);
    at += take;
  }
  await reader.cancel().catch(() => {});
  return out.slice(0, at);
}
