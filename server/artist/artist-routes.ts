import { type Context, Hono } from "hono";
import { z } from "zod";
import type { User } from "../../db/schema.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { jsonBytes, laneOf, type LaneResult, readyAnswer, signedInUser } from "../http/lanes.ts";
import { COMPRESS_JSON_MIN } from "../http/edge-middleware.ts";
import { parseId, validate } from "../http/validate.ts";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { KeptAnswers } from "../http/kept-answers.ts";
import type { OwnedTrack } from "./artist-reads.ts";
import { statusAnswer, type TrackStatusValue } from "../processing/status-keys.ts";
import { LISTEN_TOKEN_TTL_S, listenUrl, signDownloadToken } from "../tracks/downloads/token.ts";

const pageNumber = (message: string, fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v.trim());
      if (!/^\d{1,9}$/.test(v.trim()) || n < 1 || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

/** GET /api/tracks/history: `page` from 1 (past the end answers the last page), `page_size` 1–100, default 20. */
const historyQuery = z.object({
  page: pageNumber(REVIEW_TEXTS.badHistoryPage, 1, 999_999_999),
  page_size: pageNumber(REVIEW_TEXTS.badHistoryPageSize, 20, 100),
});

/** The most status answers the status poll's lane keeps (one per track id; a few hundred bytes each). */
const STATUS_BODIES_MAX = 5_000;
const utf8 = new TextEncoder();

/** The status route's JSON for a key's value, as bytes; null when long enough to go compressed (the route sends it). */
function statusBody(value: TrackStatusValue): Uint8Array | null {
  const body = JSON.stringify(statusAnswer(value));
  return body.length >= COMPRESS_JSON_MIN ? null : utf8.encode(body);
}

/**
 * GET /api/status/{id}, polled every 3 s by every open processing page, and its lane in front of the
 * router (server/http/lanes.ts; decisions 0180, 0188). The route: the guard, then `statusFor` (the
 * service decides who may see the track; outside one's sight is 404 like a missing id); the id is
 * checked by parseId alone (a validator for a path segment that is always a string cost more than the
 * rest; issue 15).
 *
 * The lane answers the everyday case: a live token of a user who is not banned (`signedInUser`, the
 * guard's first path), asking for a track whose status key names them as the owner (`statusFor`'s
 * first path), with the route's JSON. Anything else (no or a bad token, a ban, someone else's or a
 * missing key, a long answer) is null: the route decides in full. A new refusal in `statusFor` must
 * be added here too; one in the guard or in front of the route stops the app at start-up.
 *
 * Where the store hands out the key's stored text (the embedded store), the answer's bytes and the
 * owner are kept per track id with the text they were made from, and reused while the key still
 * holds that very text: the text is read on every poll, so a change or a removal is seen on the next
 * one (decision 0188). The owner check runs on every poll.
 */
export const statusLane = laneOf((ctx) => {
  const keys = ctx.processing.status;
  // Kept while the key holds the very text they were made from (decision 0213).
  const kept = new KeptAnswers<number, { owner: number | null; body: Uint8Array | null }>({
    max: STATUS_BODIES_MAX,
    build: (raw) => {
      const value = keys.parseStatus(raw);
      return value ? { owner: value.user_id, body: statusBody(value) } : null;
    },
  });
  const send = (body: Uint8Array | null): Response | null => (body ? jsonBytes(body) : null);
  /** The answer for a poll whose token is accepted; a promise only where the store has no text to peek. */
  const answer = (_req: Request, id: number, user: User): LaneResult => {
    const raw = keys.rawStatus(id);
    if (raw === undefined) {
      return keys.readStatus(id).then((value) => {
        if (!value || value.user_id !== user.id) return null;
        return send(statusBody(value));
      });
    }
    if (raw === null) {
      kept.forget(id);
      return null;
    }
    const entry = kept.get(id, raw);
    if (!entry || entry.owner !== user.id) return null;
    return send(entry.body);
  };
  return {
    name: "status poll",
    path: "/status/:id",
    head: false,
    checks: ["signedIn"],
    route: async (c: Context<AppEnv>) => {
      const value = await ctx.artist.statusFor(c.get("user"), parseId(c.req.param("id")));
      return c.json(statusAnswer(value));
    },
    answer: (req, id) => signedInUser(ctx, req, id, answer),
  };
});

/**
 * GET /api/tracks (the artist's pages) and its lane (decision 0186): the artist's list kept ready
 * per artist (decision 0185): no query, serialisation or compression while unchanged; `no-store` as
 * every answer to a signed-in request, an ETag for a client that asks with it. The lane answers a
 * live token of a user who is not banned with that very answer; anything else goes to the route.
 */
export const tracksLane = laneOf((ctx) => {
  const answer = (req: Request, _id: number, user: User): LaneResult =>
    readyAnswer(req, ctx.artist.ownedAnswer(user.id), "no-store");
  return {
    name: "artist's tracks",
    path: "/tracks",
    head: false,
    checks: ["signedIn"],
    ownNoStore: true,
    route: async (c: Context<AppEnv>) => {
      return sendJsonAnswer<{ success: true; tracks: OwnedTrack[] }>(
        c,
        await ctx.artist.ownedAnswer(c.get("user").id),
        "no-store",
      );
    },
    answer: (req, id) => signedInUser(ctx, req, id, answer),
  };
});

/** The user's tracks and batch status: /api/status/{id}, /api/track_ids, /api/tracks, /api/errors, /api/success. */
export function createTrackRoutes(ctx: AppContext) {
  const keys = ctx.processing.status;
  const status = statusLane(ctx);
  const owned = tracksLane(ctx);

  return new Hono<AppEnv>()
    .get(status.path, ctx.guards.user, status.route)
    .get("/track_ids", ctx.guards.user, async (c) => {
      return c.json({ track_ids: await keys.batchIds(c.get("user").id) });
    })
    .get(owned.path, ctx.guards.user, owned.route)
    // Every submission, failed ones too, with each direction's review as the artist sees it (issue 13).
    .get("/tracks/history", ctx.guards.user, validate("query", historyQuery), async (c) => {
      return c.json({
        success: true as const,
        ...(await ctx.artist.historyOf(c.get("user").id, c.req.valid("query"))),
      });
    })
    // The artist's own file for the history's player (issue 24, decision 0232): a signed listening
    // link like the staff player's, opening only their own tracks.
    .get("/tracks/:id/listen", ctx.guards.user, async (c) => {
      const user = c.get("user");
      const track = await ctx.artist.ownListenSource(user.id, parseId(c.req.param("id")));
      const token = await signDownloadToken(
        ctx,
        { userId: user.id, sessionId: c.get("sessionId") },
        [track.id],
        "own-listen",
      );
      return c.json({
        success: true as const,
        stream_url: listenUrl(token),
        expires_in: LISTEN_TOKEN_TTL_S,
        peaks: track.peaks,
        duration_s: track.duration_s,
      });
    })
    .get("/errors", ctx.guards.user, async (c) => {
      return c.json({ errors: await keys.errors(c.get("user").id) });
    })
    .get("/success", ctx.guards.user, async (c) => {
      return c.json({ success: await keys.success(c.get("user").id) });
    });
}
