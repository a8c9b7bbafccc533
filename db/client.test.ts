import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, type Db, migrateDb, openDb } from "./client.ts";
import { faqs } from "./schema.ts";

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

  it("a writer waits for another process's commit instead of failing with SQLITE_BUSY", async () => {
    // Another process (as `deno task login-link` is to the server) holds the write lock for 400 ms.
    const holder = `
      import { openDb } from "${new URL("./client.ts", import.meta.url).href}";
      const db = await openDb({ url: ${JSON.stringify(url)} });
      const tx = await db.$client.transaction("write");
      await tx.execute({ sql: 'INSERT INTO faqs (question, answer, "order") VALUES (?, ?, ?)', args: ["held", "a", 900] });
      console.log("locked");
      await new Promise((r) => setTimeout(r, 400));
      await tx.commit();
      db.$client.close();
    `;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", holder],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("locked")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    expect(out).toContain("locked");
    const db = await open();
    const started = performance.now();
    await db.insert(faqs).values({ question: "waited", answer: "a", order: 901 });
    expect(performance.now() - started).toBeGreaterThan(100);
    expect((await child.status).success).toBe(true);
    await reader.cancel();
    const rows = await db.select({ q: faqs.question }).from(faqs);
    expect(rows.map((r) => r.q)).toEqual(expect.arrayContaining(["held", "waited"]));
  });
});
