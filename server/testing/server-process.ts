import { openDb } from "../../db/client.ts";
import { createTokenService } from "../auth/tokens.ts";
import { createUser } from "./factories.ts";

/**
 * The real server as a subprocess (`server/main.ts`) on a free port with its own data directory:
 * for benchmarks that measure its memory and for tests that kill it mid-request.
 */
const ROOT = new URL("../..", import.meta.url).pathname;
const JWT_SECRET = "bench-secret-bench-secret-bench-secret-0123456789";

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

export interface ServerProcess {
  /** Kills the process with SIGKILL (a crash): no shutdown, and the data directory stays. */
  crash(): Promise<void>;
  url: string;
  pid: number;
  dataDir: string;
  /** A signed-in user's bearer header (user created straight in the server's database). */
  headers(): Promise<Record<string, string>>;
  memory(): { rss: number; hwm: number };
  stop(): Promise<void>;
}

/**
 * Starts `server/main.ts` (or `entry`, a test entry point under server/testing/) as a subprocess with
 * its own data directory and waits until it answers.
 */
export async function startServer(
  env: Record<string, string> = {},
  existingDataDir?: string,
  entry = "server/main.ts",
): Promise<ServerProcess> {
  const dataDir = existingDataDir ?? await Deno.makeTempDir({ prefix: "np-server-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", entry],
    cwd: ROOT,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: `${dataDir}/static`,
      CLIENT_DIST_DIR: `${dataDir}/dist`,
      JWT_SECRET,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0;; i++) {
    try {
      const res = await fetch(`${url}/api/health`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (i > 300) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    dataDir,
    async headers() {
      const db = await openDb({ url: `file:${dataDir}/app.db` });
      try {
        const user = await createUser(db);
        const tokens = createTokenService({
          db,
          secret: JWT_SECRET,
          accessTtlS: 3600,
          refreshTtlS: 3600,
          now: () => new Date(),
        });
        const pair = await tokens.issue(user.id, "bench");
        return { Authorization: `Bearer ${pair.access_token}` };
      } finally {
        db.$client.close();
      }
    },
    memory() {
      const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
      return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
    },
    async crash() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}
