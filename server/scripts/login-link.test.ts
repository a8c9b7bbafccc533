import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, migrateDb, openDb } from "../../db/client.ts";
import { sessions } from "../../db/schema.ts";
import { seedDatabase } from "../../scripts/seed.ts";
import { holdWriteLock } from "../../db/testing/hold-write-lock.ts";
import { loginLink, UserNotFoundError } from "./login-link.ts";

describe("deno task login-link", () => {
  let dir: string;
  let db: Db;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await Deno.makeTempDir({ prefix: "np-login-link-" });
    env = { DATA_DIR: dir, PUBLIC_URL: "http://127.0.0.1:9", JWT_SECRET: "s".repeat(40) };
    db = await openDb({ url: `file:${dir}/app.db` });
    await migrateDb(db);
    await seedDatabase(db, { staticDir: `${dir}/static` });
  });
  afterAll(async () => {
    db.$client.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });

  it("prints an address on PUBLIC_URL with both tokens, backed by a new session", async () => {
    const link = new URL(await loginLink(env, "artist"));
    expect(link.origin).toBe("http://127.0.0.1:9");
    expect(link.searchParams.get("access_token")).toMatch(/^ey/);
    expect(link.searchParams.get("refresh_token")).toMatch(/^ey/);
    const rows = await db.select().from(sessions).where(eq(sessions.user_agent, "login-link"));
    expect(rows.length).toBeGreaterThan(0);
  });

  it("names an unknown user", async () => {
    await expect(loginLink(env, "nobody")).rejects.toBeInstanceOf(UserNotFoundError);
  });

  it("still signs in when another process keeps the database busy for longer than the lock wait", async () => {
    // Longer than one 5 s lock wait: the first try gives up, the database layer tries once more on a fresh connection.
    const holder = await holdWriteLock(`file:${dir}/app.db`, 5600, "UPDATE users SET updated_at = updated_at");
    const before = (await db.select().from(sessions)).length;
    const link = await loginLink(env, "moderator");
    expect(new URL(link).searchParams.get("access_token")).toBeTruthy();
    expect(await holder.released()).toBe(true);
    const after = await db.select().from(sessions);
    expect(after.length).toBe(before + 1);
  }, 30_000);
});
