import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, type Db, migrateDb, openDb } from "./client.ts";
import { faqs } from "./schema.ts";
import { holdWriteLock as holdLock } from "./testing/hold-write-lock.ts";

describe("openDb (embedded file)", () => {
  let dir: string;
  let url: string;
  const opened: Db[] = [];
  const open = async () => {
    const db = await openDb({ url });
    opened.push(db);
    return db;
  };
  beforeAll(async () => {
    dir = await Deno.makeTempDir({ prefix: "np-db-" });
    url = `file:${dir}/app.db`;
    await migrateDb(await open());
  });
  afterAll(async () => {
    for (const db of opened) db.$client.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });

  it("gives every pooled connection the busy timeout and foreign keys, not only the first", async () => {
    const db = await open();
    // An open transaction holds the first connection, so the next calls run on another one.
    const tx = await db.$client.transaction("write");
    try {
      const timeout = await db.$client.execute("PRAGMA busy_timeout");
      const fk = await db.$client.execute("PRAGMA foreign_keys");
      expect(Number(timeout.rows[0][0])).toBe(BUSY_TIMEOUT_MS);
      expect(Number(fk.rows[0][0])).toBe(1);
    } finally {
      await tx.rollback();
    }
    const mode = await db.$client.execute("PRAGMA journal_mode");
    expect(String(mode.rows[0][0]).toLowerCase()).toBe("wal");
  });

  const holdWriteLock = async (ms: number, question: string) => {
    const holder = await holdLock(
      url,
      ms,
      `INSERT INTO faqs (question, answer, "order") VALUES ('${question}', 'a', 900)`,
    );
    return { released: async () => expect(await holder.released()).toBe(true) };
  };

  const questions = async (db: Db) => (await db.select({ q: faqs.question }).from(faqs)).map((r) => r.q);

  it("a writer waits for another process's commit instead of failing with SQLITE_BUSY", async () => {
    const holder = await holdWriteLock(400, "held");
    const db = await open();
    const started = performance.now();
    await db.insert(faqs).values({ question: "waited", answer: "a", order: 901 });
    expect(performance.now() - started).toBeGreaterThan(100);
    await holder.released();
    expect(await questions(db)).toEqual(expect.arrayContaining(["held", "waited"]));
  });

  it("after SQLITE_BUSY the next writes are committed, not left in a stuck connection", async () => {
    const db = await openDb({ url, busyTimeoutMs: 100 });
    opened.push(db);
    const holder = await holdWriteLock(1_000, "held long");
    // Two lock waits of 100 ms (the call and its one repeat) cannot outlast the holder.
    await expect(db.insert(faqs).values({ question: "refused", answer: "a", order: 902 })).rejects.toThrow();
    await holder.released();
    await db.insert(faqs).values({ question: "after busy", answer: "a", order: 903 });
    // Seen from another connection, and still there once this client has closed.
    const other = await open();
    expect(await questions(other)).toEqual(expect.arrayContaining(["held long", "after busy"]));
    db.$client.close();
    expect(await questions(other)).toContain("after busy");
    expect(await questions(other)).not.toContain("refused");
  });

  it("repeats a call that met SQLITE_BUSY once, on a fresh connection", async () => {
    const db = await openDb({ url, busyTimeoutMs: 250 });
    opened.push(db);
    const holder = await holdWriteLock(350, "held briefly");
    await db.insert(faqs).values({ question: "second try", answer: "a", order: 904 });
    await holder.released();
    expect(await questions(await open())).toContain("second try");
  });
});
