import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, migrateDb, openDb } from "../db/client.ts";
import { declineTemplates, faqs, sliderTiles, users } from "../db/schema.ts";
import { seedDatabase } from "./seed.ts";
import { templateTextProblem, templateTitleProblem } from "../domain/review.ts";

describe("seed", () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = await Deno.makeTempDir({ prefix: "np-seed-" });
    db = await openDb({ url: `file:${dir}/app.db` });
    await migrateDb(db);
  });
  afterAll(async () => {
    db.$client.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });

  it("creates the three users with their roles, FAQ entries and slider tiles with images", async () => {
    const report = await seedDatabase(db, { staticDir: `${dir}/static` });
    expect(report.users.created.sort()).toEqual(["admin", "artist", "moderator"]);

    const byName = Object.fromEntries((await db.select().from(users)).map((u) => [u.username, u]));
    expect(byName.admin.is_admin).toBe(true);
    expect(byName.moderator.is_admin).toBe(false);
    expect(byName.moderator.is_moderator).toBe(true);
    expect(byName.moderator.moderator_categories).toBe("label_koster,podcast_koster");
    expect(byName.artist.is_admin || byName.artist.is_moderator || byName.artist.is_banned).toBe(false);

    const entries = await db.select().from(faqs).orderBy(faqs.order);
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.map((e) => e.order)).toEqual(entries.map((_, i) => i + 1));
    const text = entries.map((e) => e.question + e.answer).join("\n");
    for (const needle of ["drum&amp;bass", "ID", " - ", "320 kbps", "искусственным интеллектом"]) {
      expect(text).toContain(needle);
    }
    expect(entries.some((e) => /<a href="\/[a-z]*">/.test(e.answer))).toBe(true);

    const tiles = await db.select().from(sliderTiles);
    expect(tiles.filter((t) => t.tile_type === "link")).toHaveLength(2);
    const [track] = tiles.filter((t) => t.tile_type === "track");
    expect(track.track_url).toMatch(/^https:\/\/soundcloud\.com\//);
    for (const t of tiles.filter((t) => t.tile_type === "link")) {
      expect(t.image_filename).toMatch(/^[0-9a-f-]{36}\.(png|jpg)$/);
      expect(t.redirect_url).toBeTruthy();
      const bytes = await Deno.readFile(`${dir}/static/storage/slider/${t.image_filename}`);
      // PNG or JPEG signature: the files the slider serves must be real images.
      const png = bytes[0] === 0x89 && bytes[1] === 0x50;
      const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
      expect(png || jpeg).toBe(true);
    }
  });

  it("is idempotent: a second run adds nothing", async () => {
    const count = async () => ({
      users: (await db.select().from(users)).length,
      faqs: (await db.select().from(faqs)).length,
      templates: (await db.select().from(declineTemplates)).length,
      tiles: (await db.select().from(sliderTiles)).length,
      images: [...Deno.readDirSync(`${dir}/static/storage/slider`)].length,
    });
    const before = await count();
    const report = await seedDatabase(db, { staticDir: `${dir}/static` });
    expect(report.users.created).toEqual([]);
    expect(report.faqs).toBe(0);
    expect(report.declineTemplates).toBe(0);
    expect(report.tiles).toBe(0);
    expect(await count()).toEqual(before);
  });

  it("adds Russian decline templates within the form's limits, and leaves an edited one as it is", async () => {
    const rows = await db.select().from(declineTemplates);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const t of rows) {
      expect(templateTitleProblem(t.title)).toBeNull();
      expect(templateTextProblem(t.text)).toBeNull();
      expect(t.text).toMatch(/[а-яё]/i);
    }
    await db.update(declineTemplates).set({ text: "Свой текст" }).where(eq(declineTemplates.id, rows[0].id));
    await seedDatabase(db, { staticDir: `${dir}/static` });
    const again = await db.select().from(declineTemplates);
    expect(again).toHaveLength(rows.length);
    expect(again.find((t) => t.id === rows[0].id)!.text).toBe("Свой текст");
  });

  it("leaves a role changed after seeding as it is", async () => {
    await db.update(users).set({ moderator_categories: "*" }).where(eq(users.username, "moderator"));
    await seedDatabase(db, { staticDir: `${dir}/static` });
    const [mod] = await db.select().from(users).where(eq(users.username, "moderator"));
    expect(mod.moderator_categories).toBe("*");
  });

  it("puts back a tile image lost from static storage", async () => {
    const [tile] = await db.select().from(sliderTiles).where(eq(sliderTiles.tile_type, "link")).limit(1);
    const path = `${dir}/static/storage/slider/${tile.image_filename}`;
    await Deno.remove(path);
    await seedDatabase(db, { staticDir: `${dir}/static` });
    expect((await Deno.stat(path)).size).toBeGreaterThan(0);
  });
});
