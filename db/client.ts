import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import * as schema from "./schema.ts";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

const MIGRATIONS_FOLDER = new URL("./migrations", import.meta.url).pathname;

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
  const client = createClient({ url, authToken });
  if (url.startsWith("file:") || url === ":memory:") {
    // WAL lets readers (status polling, staff lists) run while a writer commits.
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA busy_timeout = 5000");
    await client.execute("PRAGMA foreign_keys = ON");
  }
  return drizzle(client, { schema }) as Db;
}

/** Applies the committed drizzle-kit migrations; idempotent. */
export async function migrateDb(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
