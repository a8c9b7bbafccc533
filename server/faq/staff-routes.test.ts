import { gt } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { faqs } from "../../db/schema.ts";
import { naughtyStrings, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture()));
afterAll(() => f.close());
beforeEach(async () => {
  await f.t.ctx.db.delete(faqs).where(gt(faqs.id, 0));
});

type Faq = { id: number; question: string; answer: string; order: number };

const create = async (json: Record<string, unknown>) => {
  const r = await f.call("POST", "/api/admin/faq", { json });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.faq as Faq;
};

describe("admin FAQ", () => {
  it("creates entries with order max + 1 (or 1), lists them sorted, gets one", async () => {
    const first = await create({ question: "Первый?", answer: "Да." });
    expect(first.order).toBe(1);
    const second = await create({ question: "Второй?", answer: "Нет.", order: "" });
    expect(second.order).toBe(2);
    const early = await create({ question: "Ранний?", answer: "Ага.", order: 1 });
    expect(early.order).toBe(1);
    const next = await create({ question: "Следующий?", answer: "Ок." });
    expect(next.order).toBe(3);
    const list = await f.call("GET", "/api/admin/faq");
    expect((list.body.faqs as Faq[]).map((x) => x.id)).toEqual([first.id, early.id, second.id, next.id]);
    const got = await f.call("GET", `/api/admin/faq/${second.id}`);
    expect(got.body).toEqual({ success: true, faq: { id: second.id, question: "Второй?", answer: "Нет.", order: 2 } });
    expect((await f.call("GET", "/api/admin/faq/424242")).status).toBe(404);
  });

  it("moves an entry by its order alone (the swap of two updates), keeping question and answer", async () => {
    const a = await create({ question: "A?", answer: "a" });
    const b = await create({ question: "B?", answer: "b" });
    expect((await f.call("PUT", `/api/admin/faq/${a.id}`, { json: { order: b.order } })).status).toBe(200);
    const r = await f.call("PUT", `/api/admin/faq/${b.id}`, { json: { order: a.order } });
    expect(r.body.faq).toEqual({ id: b.id, question: "B?", answer: "b", order: 1 });
    const list = (await f.call("GET", "/api/admin/faq")).body.faqs as Faq[];
    expect(list.map((x) => x.question)).toEqual(["B?", "A?"]);
    // The public page reads the same order.
    const pub = await f.t.app.request("/api/faq");
    expect(((await pub.json()).faqs as Faq[]).map((x) => x.question)).toEqual(["B?", "A?"]);
  });

  it("refuses blank question or answer and an order that is not a positive integer", async () => {
    const a = await create({ question: "Q?", answer: "A" });
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/api/admin/faq", { question: "  ", answer: "x" }, "Вопрос обязателен для заполнения"],
      ["POST", "/api/admin/faq", { answer: "x" }, "Вопрос обязателен для заполнения"],
      ["POST", "/api/admin/faq", { question: "Q", answer: " \n " }, "Ответ обязателен для заполнения"],
      [
        "POST",
        "/api/admin/faq",
        { question: "Q", answer: "<script>alert(1)</script>" },
        "Ответ обязателен для заполнения",
      ],
      ["POST", "/api/admin/faq", { question: "Q", answer: "x", order: 0 }, "Порядок должен быть целым числом больше 0"],
      [
        "POST",
        "/api/admin/faq",
        { question: "Q", answer: "x", order: -1 },
        "Порядок должен быть целым числом больше 0",
      ],
      [
        "POST",
        "/api/admin/faq",
        { question: "Q", answer: "x", order: 1.5 },
        "Порядок должен быть целым числом больше 0",
      ],
      [
        "POST",
        "/api/admin/faq",
        { question: "Q", answer: "x", order: "abc" },
        "Порядок должен быть целым числом больше 0",
      ],
      ["PUT", `/api/admin/faq/${a.id}`, { order: 0 }, "Порядок должен быть целым числом больше 0"],
      ["PUT", `/api/admin/faq/${a.id}`, { question: "" }, "Вопрос обязателен для заполнения"],
      ["PUT", `/api/admin/faq/${a.id}`, {}, "Нет данных для сохранения"],
    ];
    for (const [method, path, json, error] of cases) {
      const r = await f.call(method, path, { json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    expect((await f.call("PUT", "/api/admin/faq/424242", { json: { order: 2 } })).status).toBe(404);
  });

  it("sanitises the answer: basic HTML stays; scripts, handlers and javascript: links go", async () => {
    const faq = await create({
      question: "<b>Как?</b>",
      answer: '<p onclick="steal()">Текст <strong>жирный</strong> <em>курсив</em><br>строка</p>' +
        '<script>alert("x")</script><ul><li>один</li></ul><ol><li>два</li></ol>' +
        '<a href="javascript:alert(1)">плохая</a> <a href="https://example.com" target="_self" onmouseover="x()">хорошая</a>' +
        ' <a href="mailto:a@b.ru">почта</a> <img src=x onerror=alert(1)><iframe src="https://evil"></iframe>' +
        "<style>body{}</style><div>блок</div><u>подчёркнуто</u>",
    });
    expect(faq.question).toBe("<b>Как?</b>"); // plain text, shown as text
    const html = faq.answer;
    expect(html).not.toMatch(/script|onclick|onmouseover|onerror|javascript:|<img|<iframe|<style|<div|alert/);
    expect(html).toContain("<p>Текст <strong>жирный</strong> <em>курсив</em><br />строка</p>");
    expect(html).toContain("<ul><li>один</li></ul><ol><li>два</li></ol>");
    expect(html).toContain('<a target="_blank" rel="noopener noreferrer nofollow">плохая</a>');
    expect(html).toContain(
      '<a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com">хорошая</a>',
    );
    expect(html).toContain('href="mailto:a@b.ru"');
    expect(html).toContain("блок");
    expect(html).toContain("<u>подчёркнуто</u>");
    const updated = await f.call("PUT", `/api/admin/faq/${faq.id}`, {
      json: { answer: '<a href="data:text/html,x">d</a> ok' },
    });
    expect((updated.body.faq as Faq).answer).toBe('<a target="_blank" rel="noopener noreferrer nofollow">d</a> ok');
  });

  it("deletes an entry", async () => {
    const a = await create({ question: "Q?", answer: "A" });
    expect((await f.call("DELETE", `/api/admin/faq/${a.id}`)).body).toEqual({ success: true });
    expect((await f.call("GET", `/api/admin/faq/${a.id}`)).status).toBe(404);
    expect((await f.call("DELETE", `/api/admin/faq/${a.id}`)).status).toBe(404);
  });

  it("stores naughty strings without a server error", async () => {
    for (const s of naughtyStrings) {
      const r = await f.call("POST", "/api/admin/faq", { json: { question: s, answer: s, order: s } });
      expect(r.status, JSON.stringify(s)).toBeLessThan(500);
      const ok = await f.call("POST", "/api/admin/faq", { json: { question: s, answer: s } });
      expect(ok.status, JSON.stringify(s)).toBeLessThan(500);
      if (ok.status === 201) {
        expect((ok.body.faq as Faq).answer).not.toMatch(/<script|<[^>]*\son\w+\s*=|href\s*=\s*"?\s*javascript:/i);
      }
    }
    const pub = await f.t.app.request("/api/faq");
    expect(pub.status).toBe(200);
  });
});

describe("public GET /api/faq", () => {
  it("answers everyone with the entries sorted by order", async () => {
    await create({ question: "Второй", answer: "2", order: 2 });
    await create({ question: "Первый", answer: "1", order: 1 });
    const res = await f.t.app.request("/api/faq");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.faqs.map((x: Faq) => x.question)).toEqual(["Первый", "Второй"]);
    expect(Object.keys(body.faqs[0]).sort()).toEqual(["answer", "id", "order", "question"]);
  });
});
