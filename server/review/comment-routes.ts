import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { commentInputSchema, commentPatchSchema } from "../../domain/track-comments.ts";

/**
 * POST, PATCH and DELETE /api/{admin|moderator}/tracks/{id}/comments[/{comment_id}] (issue 24,
 * docs/decisions/0231): mounted inside the shared track routes, behind each panel's guard. The
 * tracks service decides who may see the track (404) and who may change a comment (403).
 */
export function createCommentRoutes(ctx: AppContext) {
  const comments = ctx.review.comments;
  return new Hono<AppEnv>()
    .post("/:id/comments", validate("json", commentInputSchema()), async (c) => {
      const { repeated, ...comment } = await comments.create(
        c.get("user"),
        parseId(c.req.param("id")),
        c.req.valid("json"),
      );
      // The same comment again within seconds (a double Enter): the one saved, not a second (0277).
      return repeated
        ? c.json({ success: true as const, comment, repeated }, 200)
        : c.json({ success: true as const, comment }, 201);
    })
    .patch("/:id/comments/:comment_id", validate("json", commentPatchSchema()), async (c) => {
      const comment = await comments.update(
        c.get("user"),
        parseId(c.req.param("id")),
        parseId(c.req.param("comment_id")),
        c.req.valid("json"),
      );
      return c.json({ success: true as const, comment });
    })
    .delete("/:id/comments/:comment_id", async (c) => {
      const removed = await comments.remove(
        c.get("user"),
        parseId(c.req.param("id")),
        parseId(c.req.param("comment_id")),
      );
      return c.json({ success: true as const, deleted: removed.id });
    });
}
