/**
 * Decline templates (issue 13), message templates of every outcome since issue 23 (decision 0224):
 * administrators keep the list (/api/admin/decline-templates), moderators read it
 * (/api/moderator/decline-templates) for the decision form.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECLINE_TEMPLATES_MAX, REVIEW_TEXTS } from "../../domain/review.ts";
import { declineTemplates } from "../../db/schema.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture();
});
afterAll(() => f.close());

const ADMIN = "/api/admin/decline-templates";

describe("/api/admin/decline-templates", () => {
  it("has Russian defaults for accepting and shortlisting from the migration, once", async () => {
    const accepted = (await f.call("GET", `${ADMIN}?outcome=accepted`)).body.templates as Array<{ text: string }>;
    const shortlisted = (await f.call("GET", `${ADMIN}?outcome=shortlisted`)).body.templates as Array<{ text: string }>;
    expect(accepted.length).toBe(2);
    expect(shortlisted.length).toBe(2);
    for (const t of [...accepted, ...shortlisted]) expect(t.text).toMatch(/\{title\}/);
    const bad = await f.call("GET", `${ADMIN}?outcome=maybe`);
    expect([bad.status, bad.body]).toEqual([400, { success: false, error: REVIEW_TEXTS.unknownOutcome }]);
  });

  it("keeps each template's outcome: given on create (a decline when left out), changed on update", async () => {
    const r = await f.call("POST", ADMIN, {
      json: { title: "В шорт", text: "{artist}, «{title}» в шорт-листе «{direction}»", outcome: "shortlisted" },
    });
    expect(r.status).toBe(201);
    const id = (r.body.template as { id: number }).id;
    expect(r.body.template).toMatchObject({ outcome: "shortlisted" });
    const moved = await f.call("PUT", `${ADMIN}/${id}`, { json: { outcome: "accepted" } });
    expect(moved.body.template).toMatchObject({ outcome: "accepted", title: "В шорт" });
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", ADMIN, { title: "Т", text: "Т", outcome: "listened" }, REVIEW_TEXTS.unknownOutcome],
      ["POST", ADMIN, { title: "Т", text: "Привет, {artst}" }, REVIEW_TEXTS.unknownPlaceholder("{artst}")],
      ["PUT", `${ADMIN}/${id}`, { outcome: null }, REVIEW_TEXTS.unknownOutcome],
    ];
    for (const [method, path, json, error] of cases) {
      const res = await f.call(method, path, { json });
      expect([res.status, res.body], JSON.stringify(json)).toEqual([400, { success: false, error }]);
    }
    const mod = await f.call("GET", "/api/moderator/decline-templates?outcome=accepted", { headers: f.as.moderator });
    expect((mod.body.templates as Array<{ id: number; outcome: string }>).find((t) => t.id === id)?.outcome)
      .toBe("accepted");
  });

  it("creates, lists, reads, updates and deletes, trimming the texts", async () => {
    const created = await f.call("POST", ADMIN, {
      json: { title: "  Не наш стиль ", text: " Спасибо, но это не наш стиль. " },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      template: {
        id: expect.any(Number),
        title: "Не наш стиль",
        text: "Спасибо, но это не наш стиль.",
        outcome: "declined",
        updated_at: expect.any(String),
      },
    });
    const id = (created.body.template as { id: number }).id;
    const second = await f.call("POST", ADMIN, { json: { title: "Сведение", text: "Доработайте сведение." } });
    const list = await f.call("GET", `${ADMIN}?outcome=declined`);
    expect(list.body).toEqual({ success: true, templates: [created.body.template, second.body.template] });
    expect((await f.call("GET", `${ADMIN}/${id}`)).body).toEqual({ success: true, template: created.body.template });

    const updated = await f.call("PUT", `${ADMIN}/${id}`, { json: { text: "Новый текст" } });
    expect(updated.body.template).toMatchObject({ id, title: "Не наш стиль", text: "Новый текст" });
    expect((await f.call("PUT", `${ADMIN}/${id}`, { json: { title: "Стиль" } })).body.template)
      .toMatchObject({ title: "Стиль", text: "Новый текст" });

    expect((await f.call("DELETE", `${ADMIN}/${id}`)).body).toEqual({ success: true });
    for (const [method, json] of [["GET"], ["PUT", { title: "x" }], ["DELETE"]] as const) {
      const r = await f.call(method, `${ADMIN}/${id}`, { json });
      expect(r.status, method).toBe(404);
      expect(r.body).toEqual({ success: false, error: REVIEW_TEXTS.templateNotFound });
    }
    expect((await f.call("GET", `${ADMIN}/abc`)).status).toBe(404);
  });

  it("refuses empty, missing and too long fields with the form's texts", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", ADMIN, { text: "Текст" }, REVIEW_TEXTS.templateTitleRequired],
      ["POST", ADMIN, { title: "   ", text: "Текст" }, REVIEW_TEXTS.templateTitleRequired],
      ["POST", ADMIN, { title: "Т", text: "" }, REVIEW_TEXTS.templateTextRequired],
      ["POST", ADMIN, { title: "Т" }, REVIEW_TEXTS.templateTextRequired],
      ["POST", ADMIN, { title: "ж".repeat(101), text: "Текст" }, REVIEW_TEXTS.templateTitleTooLong],
      ["POST", ADMIN, { title: "Т", text: "ж".repeat(1001) }, REVIEW_TEXTS.templateTextTooLong],
      ["POST", ADMIN, { title: 5, text: "Текст" }, REVIEW_TEXTS.templateTitleRequired],
    ];
    const [{ id }] = await f.t.ctx.db.insert(declineTemplates).values({ title: "Есть", text: "Есть" }).returning();
    cases.push(["PUT", `${ADMIN}/${id}`, { text: " " }, REVIEW_TEXTS.templateTextRequired]);
    cases.push(["PUT", `${ADMIN}/${id}`, { title: "" }, REVIEW_TEXTS.templateTitleRequired]);
    for (const [method, path, json, error] of cases) {
      const r = await f.call(method, path, { json });
      expect(r.status, JSON.stringify(json).slice(0, 50)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    // 1,000 emoji are 1,000 characters.
    expect((await f.call("POST", ADMIN, { json: { title: "🎧".repeat(100), text: "🥁".repeat(1000) } })).status).toBe(
      201,
    );
  });

  it("keeps each outcome's list short", async () => {
    const { length } = await f.t.ctx.db.select().from(declineTemplates).where(eq(declineTemplates.outcome, "declined"));
    await f.t.ctx.db.insert(declineTemplates).values(
      Array.from({ length: DECLINE_TEMPLATES_MAX - length }, (_, i) => ({ title: `Т${i}`, text: "Текст" })),
    );
    const r = await f.call("POST", ADMIN, { json: { title: "Лишний", text: "Текст" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: REVIEW_TEXTS.tooManyTemplates });
    // Moving one into the full list is refused too; the other outcomes still have room.
    const [accept] = await f.t.ctx.db.select().from(declineTemplates).where(eq(declineTemplates.outcome, "accepted"));
    expect((await f.call("PUT", `${ADMIN}/${accept.id}`, { json: { outcome: "declined" } })).status).toBe(400);
    expect((await f.call("POST", ADMIN, { json: { title: "Да", text: "Да", outcome: "accepted" } })).status).toBe(201);
  });

  it("is for administrators only; moderators read the list at /api/moderator/decline-templates", async () => {
    const mod = f.as.moderator;
    for (const [method, json] of [["GET"], ["POST", { title: "Т", text: "Т" }]] as const) {
      expect((await f.call(method, ADMIN, { headers: mod, json })).status).toBe(403);
      expect((await f.call(method, ADMIN, { headers: f.as.plain, json })).status).toBe(403);
      expect((await f.call(method, ADMIN, { headers: f.as.anonymous, json })).status).toBe(401);
    }
    const read = await f.call("GET", "/api/moderator/decline-templates", { headers: mod });
    expect(read.status).toBe(200);
    expect(read.body.templates).toEqual((await f.call("GET", ADMIN)).body.templates);
    expect((await f.call("GET", "/api/moderator/decline-templates", { headers: f.as.plain })).status).toBe(403);
    // Reading only: writes through the moderator's path do not exist.
    const write = await f.call("POST", "/api/moderator/decline-templates", {
      headers: mod,
      json: { title: "Т", text: "Т" },
    });
    expect(write.status).toBe(405);
    expect(write.body.success).toBe(false);
  });
});
