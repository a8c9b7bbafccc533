import { asc, eq, sql } from "drizzle-orm";
import { hiddenCharsProblem, multiline } from "../../domain/hidden-chars.ts";
import { z } from "zod";
import { type Faq, faqs } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";
import { sharedAnswer } from "../http/kept-answers.ts";
import { sanitizeAnswer } from "./sanitize.ts";

/**
 * FAQ entries for the admin and moderator screens and the public page (spec 2 §3, §5).
 * The question is plain text (shown as text); the answer is sanitised HTML.
 */

export const FAQ_NOT_FOUND = "Вопрос не найден";
export const MAX_ORDER = 1_000_000;

const ORDER_MESSAGE = "Порядок должен быть целым числом больше 0";
const QUESTION_REQUIRED = "Вопрос обязателен для заполнения";
const ANSWER_REQUIRED = "Ответ обязателен для заполнения";

const order = z
  .union([z.number(), z.string().max(20)], { message: ORDER_MESSAGE })
  .transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_ORDER) {
      ctx.addIssue({ code: "custom", message: ORDER_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

/** The hidden-characters rule as a zod check, its message naming them. */
const refuseHidden = (kind?: { multiline: boolean }) => (v: string, ctx: z.RefinementCtx) => {
  const hidden = hiddenCharsProblem(v, kind);
  if (hidden) ctx.addIssue({ code: "custom", message: hidden });
};

const question = z
  .string({ message: QUESTION_REQUIRED })
  .max(500, "Вопрос слишком длинный (не более 500 символов)")
  .transform((v) => v.trim())
  .pipe(z.string().min(1, QUESTION_REQUIRED))
  .superRefine(refuseHidden());

/** The answer is multi-line (a textarea), the question one line (decision 0305). */
const answer = multiline(
  z
    .string({ message: ANSWER_REQUIRED })
    .max(20_000, "Ответ слишком длинный (не более 20000 символов)")
    .refine((v) => v.trim() !== "", ANSWER_REQUIRED)
    .superRefine(refuseHidden({ multiline: true })),
);

/** Create: order may be left out (or empty), then it is the largest plus one. */
export const faqCreateSchema = z.object({
  question,
  answer,
  order: z.preprocess((v) => (v === "" || v === null ? undefined : v), order.optional()),
});

/** Update: any subset; moving an entry sends the order alone. */
export const faqUpdateSchema = z
  .object({ question: question.optional(), answer: answer.optional(), order: order.optional() })
  .refine((v) => v.question !== undefined || v.answer !== undefined || v.order !== undefined, {
    message: "Нет данных для сохранения",
  });

export type FaqView = Pick<Faq, "id" | "question" | "answer" | "order">;

const view = (f: Faq): FaqView => ({ id: f.id, question: f.question, answer: f.answer, order: f.order });

function cleanAnswer(raw: string): string {
  const clean = sanitizeAnswer(raw);
  // An answer that was only markup (or only a script) is as empty as a blank one.
  if (clean.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " ").trim() === "") throw badRequest(ANSWER_REQUIRED);
  return clean;
}

/** GET /api/faq's answer, `{ success: true, faqs }`, kept ready; every write below drops it. */
const publicList = sharedAnswer(
  "faq",
  async (ctx: Pick<AppDeps, "db" | "clock" | "logger"> & { faq: { list(): Promise<FaqView[]> } }) => ({
    success: true as const,
    faqs: await ctx.faq.list(),
  }),
);
export const publicFaqAnswer = publicList.get;

export function createFaqService(ctx: Pick<AppDeps, "db" | "clock">) {
  const { db } = ctx;
  const changed = () => publicList.invalidate(db);
  const load = async (id: number) => {
    const [row] = await db.select().from(faqs).where(eq(faqs.id, id)).limit(1);
    if (!row) throw notFound(FAQ_NOT_FOUND);
    return row;
  };
  return {
    async list(): Promise<FaqView[]> {
      return (await db.select().from(faqs).orderBy(asc(faqs.order), asc(faqs.id))).map(view);
    },
    async get(id: number): Promise<FaqView> {
      return view(await load(id));
    },
    async create(input: z.output<typeof faqCreateSchema>): Promise<FaqView> {
      const now = ctx.clock.now();
      const body = cleanAnswer(input.answer);
      // The default order is computed in the insert itself, so two concurrent creates cannot read the same max.
      const [row] = await db
        .insert(faqs)
        .values({
          question: input.question,
          answer: body,
          order: input.order ?? sql`(SELECT coalesce(max(${faqs.order}), 0) + 1 FROM ${faqs})`,
          created_at: now,
          updated_at: now,
        })
        .returning();
      changed();
      return view(row);
    },
    async update(id: number, input: z.output<typeof faqUpdateSchema>): Promise<FaqView> {
      await load(id);
      const set: Partial<typeof faqs.$inferInsert> = { updated_at: ctx.clock.now() };
      if (input.question !== undefined) set.question = input.question;
      if (input.answer !== undefined) set.answer = cleanAnswer(input.answer);
      if (input.order !== undefined) set.order = input.order;
      const [row] = await db.update(faqs).set(set).where(eq(faqs.id, id)).returning();
      changed();
      return view(row);
    },
    async remove(id: number): Promise<void> {
      await load(id);
      await db.delete(faqs).where(eq(faqs.id, id));
      changed();
    },
  };
}

export type FaqService = ReturnType<typeof createFaqService>;
