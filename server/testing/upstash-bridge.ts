/**
 * Test tooling, not product: an HTTP server speaking the Upstash Redis REST protocol over a real
 * redis-server, so `@upstash/redis` runs against it with its default settings. Upstash itself
 * advises a REST proxy in front of Redis for CI (hiett/serverless-redis-http); none can be
 * installed here, so this carries the part of that protocol the client uses
 * (see docs/protocols.md, "Upstash Redis REST"; upstash/redis-js pkg/http.ts):
 *
 * - `POST /` `["SET","k","v"]` → `{"result": …}`, a Redis error → 400 `{"error": "…"}`
 * - `POST /pipeline` `[[…],[…]]` → `[{"result": …} | {"error": "…"}, …]`
 * - `POST /multi-exec` the same shapes, run inside MULTI/EXEC
 * - `Authorization: Bearer <token>` required
 * - `Upstash-Encoding: base64`: every string reply (bulk and status) base64, recursively in
 *   arrays; numbers, null and error texts as they are
 * - arguments arriving as JSON numbers or booleans are sent to Redis as their string form
 *
 * RESP2 is spoken directly over Deno.connect, so no Redis client package is needed.
 */

// ---------------------------------------------------------------------------------------------
// RESP2

export type RespValue = Uint8Array | number | null | RespError | RespValue[] | RespStatus;

export class RespError {
  constructor(readonly message: string) {}
}

/** A simple-string (`+OK`) reply; kept apart from bulk strings only for clarity. */
export class RespStatus {
  constructor(readonly text: string) {}
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const CRLF = enc.encode("\r\n");

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Encodes one command as a RESP array of bulk strings. */
export function encodeCommand(args: (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [enc.encode(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === "string" ? enc.encode(arg) : arg;
    parts.push(enc.encode(`$${bytes.byteLength}\r\n`), bytes, CRLF);
  }
  return concat(parts);
}

/** Incremental RESP2 reader over a byte stream. */
export class RespReader {
  #buf: Uint8Array = new Uint8Array(0);
  #pos = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async #fill(): Promise<void> {
    const { value, done } = await this.#reader.read();
    if (done) throw new Error("redis connection closed");
    this.#buf = concat([this.#buf.subarray(this.#pos), value]);
    this.#pos = 0;
  }

  async #line(): Promise<string> {
    for (;;) {
      for (let i = this.#pos; i + 1 < this.#buf.byteLength; i++) {
        if (this.#buf[i] === 13 && this.#buf[i + 1] === 10) {
          const line = dec.decode(this.#buf.subarray(this.#pos, i));
          this.#pos = i + 2;
          return line;
        }
      }
      await this.#fill();
    }
  }

  async #bytes(n: number): Promise<Uint8Array> {
    while (this.#buf.byteLength - this.#pos < n + 2) await this.#fill();
    const out = this.#buf.slice(this.#pos, this.#pos + n);
    this.#pos += n + 2;
    return out;
  }

  async read(): Promise<RespValue> {
    const line = await this.#line();
    const type = line[0];
    const rest = line.slice(1);
    switch (type) {
      case "+":
        return new RespStatus(rest);
      case "-":
        return new RespError(rest);
      case ":":
        return Number(rest);
      case "$": {
        const n = Number(rest);
        return n < 0 ? null : await this.#bytes(n);
      }
      case "*": {
        const n = Number(rest);
        if (n < 0) return null;
        const items: RespValue[] = [];
        for (let i = 0; i < n; i++) items.push(await this.read());
        return items;
      }
      default:
        throw new Error(`unexpected RESP reply: ${JSON.stringify(line)}`);
    }
  }

  release() {
    this.#reader.releaseLock();
  }
}

/** One connection to Redis; commands are written together and their replies read in order. */
export class RespConnection {
  #conn: Deno.TcpConn;
  #reader: RespReader;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
    this.#reader = new RespReader(conn.readable);
  }

  static async open(hostname: string, port: number): Promise<RespConnection> {
    return new RespConnection(await Deno.connect({ hostname, port }));
  }

  async send(commands: (string | Uint8Array)[][]): Promise<RespValue[]> {
    const payload = concat(commands.map(encodeCommand));
    let written = 0;
    while (written < payload.byteLength) written += await this.#conn.write(payload.subarray(written));
    const replies: RespValue[] = [];
    for (let i = 0; i < commands.length; i++) replies.push(await this.#reader.read());
    return replies;
  }

  close() {
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }
}

// ---------------------------------------------------------------------------------------------
// REST → RESP

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

class BadRequest extends Error {}

function toArgs(command: unknown): string[] {
  if (!Array.isArray(command) || command.length === 0) {
    throw new BadRequest("ERR a command must be a non-empty array");
  }
  return command.map((a) => {
    if (typeof a === "string") return a;
    if (typeof a === "number" || typeof a === "boolean") return String(a);
    throw new BadRequest("ERR command arguments must be strings, numbers or booleans");
  });
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.byteLength; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** A reply as JSON; errors nested in arrays (EXEC) become their text. */
function toJson(value: RespValue, b64: boolean): Json {
  if (value === null || typeof value === "number") return value;
  if (value instanceof Uint8Array) return b64 ? base64(value) : dec.decode(value);
  if (value instanceof RespStatus) return b64 ? base64(enc.encode(value.text)) : value.text;
  if (value instanceof RespError) return value.message;
  return value.map((v) => toJson(v, b64));
}

function entry(value: RespValue, b64: boolean): { result: Json } | { error: string } {
  return value instanceof RespError ? { error: value.message } : { result: toJson(value, b64) };
}

export interface UpstashBridge {
  url: string;
  token: string;
  close(): Promise<void>;
}

export interface BridgeOptions {
  redisHostname?: string;
  redisPort: number;
  token?: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

/** Starts the bridge on 127.0.0.1. */
export function startUpstashBridge(opts: BridgeOptions): UpstashBridge {
  const token = opts.token ?? crypto.randomUUID();
  const redisHost = opts.redisHostname ?? "127.0.0.1";
  const idle: RespConnection[] = [];
  const all = new Set<RespConnection>();

  // A connection is used by one request at a time, so MULTI/EXEC never interleaves with others.
  const withConnection = async <T>(fn: (c: RespConnection) => Promise<T>): Promise<T> => {
    const conn = idle.pop() ?? await RespConnection.open(redisHost, opts.redisPort);
    all.add(conn);
    try {
      const out = await fn(conn);
      idle.push(conn);
      return out;
    } catch (err) {
      conn.close();
      all.delete(conn);
      throw err;
    }
  };

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  const handler = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname.replace(/\/+$/, "") || "/";
    if (req.method !== "POST" || !["/", "/pipeline", "/multi-exec"].includes(path)) {
      return json({ error: "Not found" }, 404);
    }
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return json({ error: "Unauthorized" }, 401);
    }
    const b64 = (req.headers.get("upstash-encoding") ?? "").toLowerCase() === "base64";
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return json({ error: "ERR the body must be JSON" }, 400);
    }
    try {
      if (path === "/") {
        const [reply] = await withConnection((c) => c.send([toArgs(body)]));
        return reply instanceof RespError ? json({ error: reply.message }, 400) : json({ result: toJson(reply, b64) });
      }
      if (!Array.isArray(body) || body.length === 0) {
        throw new BadRequest("ERR the body must be a non-empty array of commands");
      }
      const commands = body.map(toArgs);
      if (path === "/pipeline") {
        const replies = await withConnection((c) => c.send(commands));
        return json(replies.map((r) => entry(r, b64)));
      }
      // /multi-exec: queue everything, then EXEC; one command rejected while queueing aborts all.
      const replies = await withConnection((c) => c.send([["MULTI"], ...commands, ["EXEC"]]));
      const exec = replies[replies.length - 1];
      const queued = replies.slice(1, -1).find((r) => r instanceof RespError) as RespError | undefined;
      if (queued) return json({ error: queued.message }, 400);
      if (exec instanceof RespError) return json({ error: exec.message }, 400);
      if (!Array.isArray(exec)) return json({ error: "ERR transaction aborted" }, 400);
      return json(exec.map((r) => entry(r, b64)));
    } catch (err) {
      if (err instanceof BadRequest) return json({ error: err.message }, 400);
      return json({ error: `ERR bridge: ${(err as Error).message}` }, 500);
    }
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: opts.port ?? 0, onListen: () => {} }, handler);
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    async close() {
      await server.shutdown();
      for (const c of all) c.close();
      all.clear();
      idle.length = 0;
    },
  };
}
