import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import {
  DOWNLOAD_TOKEN_TTL_S,
  downloadUrl,
  type LinkSigner,
  LISTEN_TOKEN_TTL_S,
  listenUrl,
  signDownloadToken,
} from "../tracks/downloads/token.ts";
import { parseId, validate } from "../http/validate.ts";
import { DIRECTIONS } from "../../domain/directions.ts";
import { decisionInputSchema, trackDecisionInputSchema } from "../../domain/review.ts";
import { listenedInputSchema } from "../../domain/listening.ts";
import { createAssignmentRoutes } from "./assignment-routes.ts";
import { voteInputSchema } from "../../domain/votes.ts";
import { createCommentRoutes } from "./comment-routes.ts";
import { trackInputSchema, trackListQuerySchema, trackModerationSchema, trackUpdateSchema } from "../tracks/service.ts";

const decisionParams = z.object({
  id: z.string(),
  direction: z.enum(DIRECTIONS, { message: "Неизвестное направление" }),
});

const downloadManySchema = z.object({
  track_ids: z
    .array(z.union([z.number().int().positive(), z.string().regex(/^\d{1,15}$/).transform(Number)]), {
      message: "Не выбраны треки для скачивания",
    })
    .min(1, "Не выбраны треки для скачивания"),
});

/**
 * The one track API behind /api/admin/tracks and /api/moderator/tracks. The caller mounts it behind
 * its own guards; every handler hands the signed-in user to the tracks service, which derives their
 * current scope (`scopeOf`), the same rule the status call and the download links apply
 * (`maySeeTrack`). Each panel's routes are
 * one chain (the shared calls, then its own) so the typed client sees every answer's shape.
 */
function createSharedTrackRoutes(ctx: AppContext) {
  const { tracks, review } = ctx;

  const link = async (signer: LinkSigner, ids: number[]) => {
    const token = await signDownloadToken(ctx, signer, ids);
    return { success: true as const, download_url: downloadUrl(token), expires_in: DOWNLOAD_TOKEN_TTL_S };
  };

  return new Hono<AppEnv>()
    // Assignment and presence (issue 24): before `/:id`, whose pattern would take their names.
    .route("/", createAssignmentRoutes(ctx))
    .get("/", validate("query", trackListQuerySchema), async (c) => {
      const list = await tracks.list(c.get("user"), c.req.valid("query"));
      return c.json({ success: true, ...list });
    })
    .get("/download/:id", async (c) => {
      const user = c.get("user");
      const [track] = await tracks.forDownload(user, [parseId(c.req.param("id"))]);
      return c.json(await link({ userId: user.id, sessionId: c.get("sessionId") }, [track.id]));
    })
    .post("/download", validate("json", downloadManySchema), async (c) => {
      const user = c.get("user");
      const ids = [...new Set(c.req.valid("json").track_ids)];
      // Several tracks make a ZIP, which names the ones without a file in missing.txt (issue 12);
      // a single track is its file, so it must have one.
      if (ids.length > 1) await tracks.forArchive(user, ids);
      else await tracks.forDownload(user, ids);
      return c.json(await link({ userId: user.id, sessionId: c.get("sessionId") }, ids));
    })
    .get("/:id/listen", async (c) => {
      const user = c.get("user");
      const track = await tracks.listenSource(user, parseId(c.req.param("id")));
      const token = await signDownloadToken(
        ctx,
        { userId: user.id, sessionId: c.get("sessionId") },
        [track.id],
        "listen",
      );
      // Opening a track marks nothing (issue 20): it starts the caller's played-time clock, which
      // caps their first report. Bookkeeping never keeps anyone from listening: a failed write is
      // logged and the stream is answered.
      await review.openListen(user, track.id).catch((err) => {
        ctx.logger.warn("listen not recorded", { id: track.id, err });
      });
      return c.json({
        success: true as const,
        stream_url: listenUrl(token),
        expires_in: LISTEN_TOKEN_TTL_S,
        peaks: track.peaks,
        duration_s: track.duration_s,
      });
    })
    .post("/:id/listened", validate("json", listenedInputSchema()), async (c) => {
      // The player's played time (issue 20, decision 0197); the pair reads «Прослушан» once heard.
      const result = await review.reportListened(
        c.get("user"),
        parseId(c.req.param("id")),
        c.req.valid("json").seconds,
      );
      return c.json({ success: true as const, ...result });
    })
    .put(
      "/:id/decisions/:direction",
      validate("param", decisionParams),
      validate("json", decisionInputSchema()),
      async (c) => {
        const { id, direction } = c.req.valid("param");
        const decision = await review.decide(
          c.get("user"),
          parseId(id),
          direction,
          c.req.valid("json"),
          ctx.declineTemplates.templateOf,
        );
        return c.json({ success: true as const, decision });
      },
    )
    .put(
      "/:id/votes/:direction",
      validate("param", decisionParams),
      validate("json", voteInputSchema()),
      async (c) => {
        // A staff member's vote on a pair (issue 24, decision 0229); voting again replaces it.
        const { id, direction } = c.req.valid("param");
        const result = await review.vote(c.get("user"), parseId(id), direction, c.req.valid("json"));
        return c.json({ success: true as const, ...result });
      },
    )
    .delete("/:id/votes/:direction", validate("param", decisionParams), async (c) => {
      const { id, direction } = c.req.valid("param");
      const result = await review.withdrawVote(c.get("user"), parseId(id), direction);
      return c.json({ success: true as const, ...result });
    })
    .put("/:id/decision", validate("json", trackDecisionInputSchema()), async (c) => {
      // One decision for the whole track within the caller's categories (issue 23, decision 0222).
      const result = await review.decideTrack(
        c.get("user"),
        parseId(c.req.param("id")),
        c.req.valid("json"),
        ctx.declineTemplates.templateOf,
      );
      return c.json({ success: true as const, ...result });
    })
    .post("/:id/decision/undo", async (c) => {
      // The caller's most recent decision on the track, while its hold lasts (decision 0222).
      const result = await review.undoDecision(c.get("user"), parseId(c.req.param("id")));
      return c.json({ success: true as const, ...result });
    })
    // Comments pinned to a moment of the audio (issue 24).
    .route("/", createCommentRoutes(ctx))
    .get("/:id", async (c) => {
      const track = await tracks.detail(c.get("user"), parseId(c.req.param("id")));
      return c.json({ success: true, track });
    })
    .delete("/:id", async (c) => {
      // A moderator's delete may remove only their directions (issue 13): the answer says which.
      const result = await tracks.remove(c.get("user"), parseId(c.req.param("id")));
      return c.json({ success: true, ...result });
    });
}

/** The admin's tracks: create, and a full update (user, guest name, directions, downloaded). */
export function createAdminTrackRoutes(ctx: AppContext) {
  const { tracks } = ctx;
  return createSharedTrackRoutes(ctx)
    .post("/", validate("json", trackInputSchema), async (c) => {
      const track = await tracks.create(c.req.valid("json"));
      return c.json({ success: true, track }, 201);
    })
    .put("/:id", validate("json", trackUpdateSchema), async (c) => {
      const track = await tracks.update(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true, track });
    });
}

/** The moderator's tracks: no create; updates limited to directions in scope and the downloaded flag. */
export function createModeratorTrackRoutes(ctx: AppContext) {
  const { tracks } = ctx;
  return createSharedTrackRoutes(ctx)
    .put("/:id", validate("json", trackModerationSchema), async (c) => {
      const track = await tracks.moderate(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true, track });
    });
}
