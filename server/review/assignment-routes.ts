import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { type Direction, isDirection } from "../../domain/directions.ts";
import { ASSIGN_TEXTS, MAX_PRESENCE_IDS } from "../../domain/assignment.ts";

/**
 * Assignment and presence (issue 24, docs/decisions/0233, 0234), mounted at the start of both
 * panels' track routes (staff-routes.ts), before `/:id`, so `assignee`, `assign-split`,
 * `assignable-staff` and `presence` are never read as a track id. The service applies the caller's
 * scope to every call.
 */

const idInput = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/)])
  .transform(Number);

/** A staff member's id, or null to clear. */
const userIdInput = z.union([idInput, z.null()], { message: ASSIGN_TEXTS.badUserId });

const directionInput = z.string().max(100).refine(isDirection, ASSIGN_TEXTS.unknownDirection)
  .transform((v) => v as Direction);

const assigneeSchema = z.object({
  user_id: userIdInput,
  /** Only this pair of the track; left out: every assignable pair within the caller's categories. */
  direction: directionInput.optional(),
}, { message: ASSIGN_TEXTS.badUserId });

const bulkAssigneeSchema = assigneeSchema.extend({
  track_ids: z.array(idInput, { message: ASSIGN_TEXTS.noTracks }).min(1, ASSIGN_TEXTS.noTracks)
    .max(10_000, ASSIGN_TEXTS.tooManyTracks),
});

const splitSchema = z.object({
  direction: directionInput,
  user_ids: z.array(idInput, { message: ASSIGN_TEXTS.noPeople }).min(1, ASSIGN_TEXTS.noPeople).max(
    1_000,
    ASSIGN_TEXTS.tooManyPeople,
  ),
});

const assignableQuery = z.object({
  track_id: z.string().regex(/^\d{1,15}$/, "Некорректный ID трека").transform(Number).optional(),
  direction: directionInput.optional(),
});

const presenceQuery = z.object({
  ids: z.string().max(4000, ASSIGN_TEXTS.tooManyIds).transform((v, ctx) => {
    const parts = v.split(",").map((s) => s.trim()).filter(Boolean);
    if (parts.some((p) => !/^\d{1,15}$/.test(p))) {
      ctx.addIssue({ code: "custom", message: ASSIGN_TEXTS.badIds });
      return z.NEVER;
    }
    const ids = [...new Set(parts.map(Number))];
    if (ids.length > MAX_PRESENCE_IDS) {
      ctx.addIssue({ code: "custom", message: ASSIGN_TEXTS.tooManyIds });
      return z.NEVER;
    }
    return ids;
  }),
});

export function createAssignmentRoutes(ctx: AppContext) {
  const assignments = ctx.review.assignments;
  return new Hono<AppEnv>()
    .put("/assignee", validate("json", bulkAssigneeSchema), async (c) => {
      const { track_ids, user_id, direction } = c.req.valid("json");
      const result = await assignments.assign(c.get("user"), track_ids, user_id, direction);
      return c.json({ success: true as const, assignee: result.assignee, tracks: new Set(track_ids).size });
    })
    .post("/assign-split", validate("json", splitSchema), async (c) => {
      const { direction, user_ids } = c.req.valid("json");
      const result = await assignments.splitNew(c.get("user"), direction, user_ids);
      return c.json({ success: true as const, ...result });
    })
    .get("/assignable-staff", validate("query", assignableQuery), async (c) => {
      const q = c.req.valid("query");
      const staff = await assignments.assignableStaff(c.get("user"), { trackId: q.track_id, direction: q.direction });
      return c.json({ success: true as const, staff });
    })
    .get("/presence", validate("query", presenceQuery), async (c) => {
      const presence = await ctx.review.presence(c.get("user"), c.req.valid("query").ids);
      return c.json({ success: true as const, presence });
    })
    .put("/:id/assignee", validate("json", assigneeSchema), async (c) => {
      const { user_id, direction } = c.req.valid("json");
      const result = await assignments.assign(c.get("user"), [parseId(c.req.param("id"))], user_id, direction);
      return c.json({ success: true as const, assignee: result.assignee });
    });
}
