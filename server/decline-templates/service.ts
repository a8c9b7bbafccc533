import { and, asc, count, eq } from "drizzle-orm";
import { type DeclineTemplate, declineTemplates } from "../../db/schema.ts";
import { DECLINE_TEMPLATES_MAX, REVIEW_TEXTS, type TemplateOutcome } from "../../domain/review.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";

/**
 * Ready-made messages to the artist (issue 13, decision 0156; one list per outcome since issue 23,
 * decision 0224): administrators keep the list, moderators read it, and a decision may name one of
 * its own outcome instead of typing a message. Every read and write of `decline_templates` rows is
 * here.
 */

export interface DeclineTemplateView {
  id: number;
  title: string;
  text: string;
  /** The decision it goes with. */
  outcome: TemplateOutcome;
  /** ISO 8601. */
  updated_at: string;
}

const viewOf = (t: DeclineTemplate): DeclineTemplateView => ({
  id: t.id,
  title: t.title,
  text: t.text,
  outcome: t.outcome,
  updated_at: t.updated_at.toISOString(),
});

export function createDeclineTemplatesService(ctx: Pick<AppDeps, "db" | "clock">) {
  const { db } = ctx;

  async function row(id: number): Promise<DeclineTemplate | undefined> {
    return (await db.select().from(declineTemplates).where(eq(declineTemplates.id, id)).limit(1))[0];
  }

  async function checkRoom(outcome: TemplateOutcome) {
    const [{ n }] = await db.select({ n: count() }).from(declineTemplates).where(
      and(eq(declineTemplates.outcome, outcome)),
    );
    if (n >= DECLINE_TEMPLATES_MAX) throw badRequest(REVIEW_TEXTS.tooManyTemplates);
  }

  return {
    /** In the order they were written; of one outcome when asked. */
    async list(outcome?: TemplateOutcome): Promise<DeclineTemplateView[]> {
      return (await db.select().from(declineTemplates)
        .where(outcome ? eq(declineTemplates.outcome, outcome) : undefined)
        .orderBy(asc(declineTemplates.id))).map(viewOf);
    },

    async get(id: number): Promise<DeclineTemplateView> {
      const t = await row(id);
      if (!t) throw notFound(REVIEW_TEXTS.templateNotFound);
      return viewOf(t);
    },

    /** The message a decision with this template sends (placeholders unfilled) and its outcome, or null. */
    async templateOf(id: number): Promise<{ text: string; outcome: TemplateOutcome } | null> {
      const t = await row(id);
      return t ? { text: t.text, outcome: t.outcome } : null;
    },

    /** At most DECLINE_TEMPLATES_MAX per outcome (decision 0224). */
    async create(input: { title: string; text: string; outcome: TemplateOutcome }): Promise<DeclineTemplateView> {
      await checkRoom(input.outcome);
      const now = ctx.clock.now();
      const [t] = await db
        .insert(declineTemplates)
        .values({ ...input, created_at: now, updated_at: now })
        .returning();
      return viewOf(t);
    },

    /** Changes what later declines send; decisions already made keep the text they were sent with. */
    async update(
      id: number,
      input: { title?: string; text?: string; outcome?: TemplateOutcome },
    ): Promise<DeclineTemplateView> {
      if (input.outcome !== undefined) {
        const before = await row(id);
        if (!before) throw notFound(REVIEW_TEXTS.templateNotFound);
        if (before.outcome !== input.outcome) await checkRoom(input.outcome);
      }
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
