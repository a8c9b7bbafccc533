import { type Client, createClient } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import * as schema from "./schema.ts";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

const MIGRATIONS_FOLDER = new URL("./migrations", import.meta.url).pathname;

/** How long a write waits for another connection's transaction before giving up. */
export const BUSY_TIMEOUT_MS = 5000;

export interface DbOptions {
  url: string;
  authToken?: string;
  /** Lock wait per statement; BUSY_TIMEOUT_MS unless a test needs it short. */
  busyTimeoutMs?: number;
}

/** Opens the database: an embedded file for `file:` URLs, a libSQL/Turso server otherwise. */
export async function openDb({ url, authToken, busyTimeoutMs = BUSY_TIMEOUT_MS }: DbOptions): Promise<Db> {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  // The client keeps a pool of connections: a PRAGMA run through it reaches only the connection
  // that ran it. The busy timeout is therefore given as an option, which every connection opens
  // with, so a writer waits for another's commit (this process's or another one's, such as
  // `deno task login-link`) instead of failing at once with SQLITE_BUSY.
  const embedded = url.startsWith("file:") || url === ":memory:";
  const opened = createClient({ url, authToken, timeout: busyTimeoutMs });
  const client = embedded ? recoveringFromBusy(opened) : opened;
  if (embedded) {
    // WAL lets readers (status polling, staff lists) run while a writer commits. It is kept in the
    // database file, so one connection setting it is enough.
    await client.execute("PRAGMA journal_mode = WAL");
    // libSQL opens every connection with foreign keys on (db/client.test.ts pins it for pooled
    // connections); this covers the first one should that default ever change.
    await client.execute("PRAGMA foreign_keys = ON");
  }
  return drizzle(client, { schema }) as Db;
}

/**
 * A statement that fails with SQLITE_BUSY is left un-reset by the embedded driver, and its
 * connection keeps an implicit transaction open: every later write on that connection is never
 * committed (it is rolled back when the connection closes) and the write lock stays taken from other
 * processes. So after SQLITE_BUSY the client drops all its connections and runs the call once more
 * on fresh ones. Only whole calls are repeated, and a call that got SQLITE_BUSY changed nothing:
 * a single statement did not run, and a batch was rolled back.
 */
function recoveringFromBusy(client: Client): Client {
  const again = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await call(...args);
    } catch (err) {
      if (!isBusy(err)) throw err;
      await client.reconnect();
    }
    try {
      return await call(...args);
    } catch (err) {
      // Gave up: still leave no stuck connection behind for the next call.
      if (isBusy(err)) await client.reconnect();
      throw err;
    }
  };
  const execute = again(client.execute.bind(client) as Client["execute"]);
  const batch = again(client.batch.bind(client));
  const migrate = again(client.migrate.bind(client));
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "execute") return execute;
      if (prop === "batch") return batch;
      if (prop === "migrate") return migrate;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** SQLITE_BUSY (or one of its extended codes) anywhere in the error's cause chain. */
function isBusy(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return true;
  }
  return false;
}

/** Applies the committed drizzle-kit migrations; idempotent. */
export async function migrateDb(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
