import { asc, count, eq } from "drizzle-orm";
import { type DeclineTemplate, declineTemplates } from "../../db/schema.ts";
import { DECLINE_TEMPLATES_MAX, REVIEW_TEXTS } from "../../domain/review.ts";
import type { AppContext } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";

/**
 * Ready-made decline messages (issue 13, decision 0156): administrators keep the list, moderators
 * read it, and a decline may name one instead of typing a message. Every read and write of
 * `decline_templates` rows is here.
 */

export interface DeclineTemplateView {
  id: number;
  title: string;
  text: string;
  /** ISO 8601. */
  updated_at: string;
}

const viewOf = (t: DeclineTemplate): DeclineTemplateView => ({
  id: t.id,
  title: t.title,
  text: t.text,
  updated_at: t.updated_at.toISOString(),
});

export function createDeclineTemplatesService(ctx: Pick<AppContext, "db" | "clock">) {
  const { db } = ctx;

  async function row(id: number): Promise<DeclineTemplate | undefined> {
    return (await db.select().from(declineTemplates).where(eq(declineTemplates.id, id)).limit(1))[0];
  }

  return {
    /** In the order they were written. */
    async list(): Promise<DeclineTemplateView[]> {
      return (await db.select().from(declineTemplates).orderBy(asc(declineTemplates.id))).map(viewOf);
    },

    async get(id: number): Promise<DeclineTemplateView> {
      const t = await row(id);
      if (!t) throw notFound(REVIEW_TEXTS.templateNotFound);
      return viewOf(t);
    },

    /** The message a decline with this template sends, or null when there is no such template. */
    async textOf(id: number): Promise<string | null> {
      return (await row(id))?.text ?? null;
    },

    async create(input: { title: string; text: string }): Promise<DeclineTemplateView> {
      const [{ n }] = await db.select({ n: count() }).from(declineTemplates);
      if (n >= DECLINE_TEMPLATES_MAX) throw badRequest(REVIEW_TEXTS.tooManyTemplates);
      const now = ctx.clock.now();
      const [t] = await db
        .insert(declineTemplates)
        .values({ ...input, created_at: now, updated_at: now })
        .returning();
      return viewOf(t);
    },

    /** Changes what later declines send; decisions already made keep the text they were sent with. */
    async update(id: number, input: { title?: string; text?: string }): Promise<DeclineTemplateView> {
      const [t] = await db
        .update(declineTemplates)
        .set({ ...input, updated_at: ctx.clock.now() })
        .where(eq(declineTemplates.id, id))
        .returning();
      if (!t) throw notFound(REVIEW_TEXTS.templateNotFound);
      return viewOf(t);
    },

    async remove(id: number): Promise<void> {
      const gone = await db.delete(declineTemplates).where(eq(declineTemplates.id, id)).returning({
        id: declineTemplates.id,
      });
      if (gone.length === 0) throw notFound(REVIEW_TEXTS.templateNotFound);
    },
  };
}

export type DeclineTemplatesService = ReturnType<typeof createDeclineTemplatesService>;
