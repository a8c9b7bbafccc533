import { createClient, type Client } from "@libsql/client";
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
}

/** Opens the database: an embedded file for `file:` URLs, a libSQL/Turso server otherwise. */
export async function openDb({ url, authToken }: DbOptions): Promise<Db> {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  // The client keeps a pool of connections: a PRAGMA run through it reaches only the connection
  // that ran it. The busy timeout is therefore given as an option, which every connection opens
  // with, so a writer waits for another's commit (this process's or another one's, such as
  // `deno task login-link`) instead of failing at once with SQLITE_BUSY.
  const client = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS });
  if (url.startsWith("file:") || url === ":memory:") {
    // WAL lets readers (status polling, staff lists) run while a writer commits. It is kept in the
    // database file, so one connection setting it is enough.
    await client.execute("PRAGMA journal_mode = WAL");
    // libSQL opens every connection with foreign keys on (db/client.test.ts pins it for pooled
    // connections); this covers the first one should that default ever change.
    await client.execute("PRAGMA foreign_keys = ON");
  }
  return drizzle(client, { schema }) as Db;
}

/** Applies the committed drizzle-kit migrations; idempotent. */
export async function migrateDb(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
