/**
 * Test tooling: a throw-away `redis-server` (Debian package) on a free port in a temp directory,
 * with persistence switched off. Used by the status-store contract test through the Upstash bridge.
 */

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];

/** The redis-server binary, or null when it is not installed. */
export async function findRedisServer(): Promise<string | null> {
  for (const path of CANDIDATES) {
    try {
      const s = await Deno.stat(path);
      if (s.isFile) return path;
    } catch { /* not here */ }
  }
  return null;
}

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export interface RedisServer {
  port: number;
  hostname: string;
  stop(): Promise<void>;
  /** SIGSTOP: connections are accepted by the kernel but nothing answers, like a network black hole. */
  pause(): void;
  /** SIGCONT after `pause`; the data is still there. */
  resume(): void;
}

async function answersPing(port: number): Promise<boolean> {
  let conn: Deno.TcpConn | undefined;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode("*1\r\n$4\r\nPING\r\n"));
    const buf = new Uint8Array(64);
    const n = await conn.read(buf);
    return n !== null && new TextDecoder().decode(buf.subarray(0, n)).startsWith("+PONG");
  } catch {
    return false;
  } finally {
    try {
      conn?.close();
    } catch { /* already closed */ }
  }
}

/** Starts redis-server and waits until it answers PING. Throws when the binary is missing. */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = await findRedisServer();
  if (!bin) throw new Error("redis-server is not installed (apt-get install redis-server)");
  const dir = await Deno.makeTempDir({ prefix: "np-redis-" });
  // A port taken between freePort() and the bind makes redis exit at once; try a few ports.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = freePort();
    const child = new Deno.Command(bin, {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
        "--logfile",
        `${dir}/redis.log`,
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    let exited = false;
    child.status.then(() => (exited = true));
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      if (await answersPing(port)) {
        let paused = false;
        return {
          port,
          hostname: "127.0.0.1",
          pause() {
            child.kill("SIGSTOP");
            paused = true;
          },
          resume() {
            if (!paused) return;
            child.kill("SIGCONT");
            paused = false;
          },
          async stop() {
            try {
              // A stopped process keeps SIGTERM pending until it runs again.
              if (paused) child.kill("SIGCONT");
              child.kill("SIGTERM");
            } catch { /* already gone */ }
            await child.status;
            await Deno.remove(dir, { recursive: true }).catch(() => {});
          },
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!exited) {
      child.kill("SIGKILL");
      await child.status;
    }
  }
  const log = await Deno.readTextFile(`${dir}/redis.log`).catch(() => "");
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  throw new Error(`redis-server did not start:\n${log}`);
}
