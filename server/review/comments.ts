import { and, asc, count, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { trackAnalysis, trackComments, tracks, users } from "../../db/schema.ts";
import {
  COMMENT_TEXTS,
  type CommentInput,
  type CommentPatch,
  COMMENTS_PER_TRACK_MAX,
} from "../../domain/track-comments.ts";
import type { TrackCommentView } from "../../domain/track-comments.ts";
import { scopeOf } from "../../domain/scope.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest, forbidden, notFound } from "../lib/http-error.ts";
import { analysisJoin, trackLengthS } from "../processing/analysis.ts";
import type { KeptListWrites } from "../tracks/kept-lists.ts";
import { scopeSql } from "../tracks/scope.ts";
import { displayName, TRACK_NOT_FOUND, type Viewer } from "../tracks/views.ts";

/**
 * Staff comments pinned to a moment of a track (issue 24, docs/decisions/0231, 0232). Whoever sees
 * the track (views.ts's sight rule: a moderator's categories) may read and add comments; only the
 * author and admins may change or delete one (403). Outside one's sight the track is 404, like every
 * other track call. A shared comment is the artist's to read in their history, without the author.
 */

/** A comment as staff see it (domain/track-comments.ts). */
export type CommentView = TrackCommentView;

/** A shared comment as the artist reads it: no author, no id (decision 0232). */
export interface SharedComment {
  at_s: number;
  end_s: number | null;
  text: string;
}

const c = trackComments;
/** How long the same comment again is taken for the one already saved (decision 0277). */
export const COMMENT_REPEAT_WINDOW_MS = 10_000;
const viewColumns = {
  id: c.id,
  at_s: c.at_s,
  end_s: c.end_s,
  text: c.text,
  shared: c.shared,
  created_at: c.created_at,
  author_id: c.author_id,
  username: users.username,
  first_name: users.first_name,
  last_name: users.last_name,
};
type ViewRow = {
  id: number;
  at_s: number;
  end_s: number | null;
  text: string;
  shared: boolean;
  created_at: Date;
  author_id: number | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
};

function toView(r: ViewRow): CommentView {
  return {
    id: r.id,
    at_s: r.at_s,
    end_s: r.end_s,
    text: r.text,
    shared: r.shared,
    author: r.author_id !== null && r.username !== null
      ? {
        id: r.author_id,
        name: displayName({ username: r.username, first_name: r.first_name, last_name: r.last_name }),
      }
      : null,
    created_at: r.created_at.toISOString(),
  };
}

/** Every comment of a track, by moment (the staff track detail's `comments`). */
export async function commentsOfTrack(deps: Pick<AppDeps, "db">, trackId: number): Promise<CommentView[]> {
  const { db } = deps;
  const rows = await db
    .select(viewColumns)
    .from(c)
    .leftJoin(users, eq(users.id, c.author_id))
    .where(eq(c.track_id, trackId))
    .orderBy(asc(c.at_s), asc(c.id));
  return rows.map(toView);
}

/** The shared comments of these tracks, by moment; the artist's history (decision 0232). */
export async function sharedCommentsOf(
  deps: Pick<AppDeps, "db">,
  trackIds: readonly number[],
): Promise<Map<number, SharedComment[]>> {
  const { db } = deps;
  const out = new Map<number, SharedComment[]>();
  if (trackIds.length === 0) return out;
  const rows = await db
    .select({ track_id: c.track_id, at_s: c.at_s, end_s: c.end_s, text: c.text })
    .from(c)
    .where(and(inArray(c.track_id, [...trackIds]), eq(c.shared, true)))
    .orderBy(asc(c.at_s), asc(c.id));
  for (const { track_id, ...r } of rows) {
    const list = out.get(track_id) ?? [];
    list.push(r);
    out.set(track_id, list);
  }
  return out;
}

export function createTrackComments(
  ctx: Pick<AppDeps, "db" | "clock">,
  { afterWrite }: Pick<KeptListWrites, "afterWrite">,
) {
  const { db } = ctx;
  const deps = { db };

  /** The track within the caller's sight (404 outside it), its owner and its length. */
  async function trackFor(who: Viewer, trackId: number) {
    const [row] = await db
      .select({ id: tracks.id, user_id: tracks.user_id, length_s: trackLengthS })
      .from(tracks)
      .leftJoin(trackAnalysis, analysisJoin)
      .where(and(eq(tracks.id, trackId), scopeSql(scopeOf(who))))
      .limit(1);
    if (!row) throw notFound(TRACK_NOT_FOUND);
    return row;
  }

  /** Within the track's length by the one rule; a track whose length is not known yet takes any moment. */
  function checkWithin(at: number, end: number | null, length: number | null) {
    if (end !== null && end <= at) throw badRequest(COMMENT_TEXTS.badEnd);
    if (length === null) return;
    if (at > length || (end !== null && end > length)) throw badRequest(COMMENT_TEXTS.beyondTrack);
  }

  async function one(trackId: number, commentId: number): Promise<CommentView> {
    const [row] = await db
      .select(viewColumns)
      .from(c)
      .leftJoin(users, eq(users.id, c.author_id))
      .where(and(eq(c.id, commentId), eq(c.track_id, trackId)))
      .limit(1);
    if (!row) throw notFound(COMMENT_TEXTS.notFound);
    return toView(row);
  }

  /** The stored comment the caller may change: 404 when not on this track, 403 unless author or admin. */
  async function owned(who: Viewer, trackId: number, commentId: number) {
    const [row] = await db.select({ author_id: c.author_id, at_s: c.at_s, end_s: c.end_s, shared: c.shared })
      .from(c)
      .where(and(eq(c.id, commentId), eq(c.track_id, trackId)))
      .limit(1);
    if (!row) throw notFound(COMMENT_TEXTS.notFound);
    if (!who.is_admin && row.author_id !== who.id) throw forbidden(COMMENT_TEXTS.notAuthor);
    return row;
  }

  /** A write that may change what the artist reads drops their kept answers after it (kept-lists.ts). */
  const write = <T>(owner: number | null, touchesArtist: boolean, run: () => Promise<T>) =>
    touchesArtist ? afterWrite([owner], run) : run();

  return {
    ofTrack: (trackId: number): Promise<CommentView[]> => commentsOfTrack(deps, trackId),

    sharedOf: (trackIds: readonly number[]): Promise<Map<number, SharedComment[]>> => sharedCommentsOf(deps, trackIds),

    /** How many shared comments a track has now (the decision's Telegram message mentions them). */
    async sharedCount(trackId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(c).where(and(eq(c.track_id, trackId), eq(c.shared, true)));
      return row?.n ?? 0;
    },

    /**
     * A new comment; the same text at the same moment by the same author within
     * COMMENT_REPEAT_WINDOW_MS is the one already saved (a double Enter, a repeated request: decision
     * 0277), answered with `repeated` and written once. The check and the insert are one statement.
     */
    async create(who: Viewer, trackId: number, input: CommentInput): Promise<CommentView & { repeated?: true }> {
      const track = await trackFor(who, trackId);
      checkWithin(input.at_s, input.end_s, track.length_s);
      const [n] = await db.select({ n: count() }).from(c).where(eq(c.track_id, trackId));
      if ((n?.n ?? 0) >= COMMENTS_PER_TRACK_MAX) throw badRequest(COMMENT_TEXTS.tooMany);
      const now = ctx.clock.now();
      const same = and(
        eq(c.track_id, trackId),
        eq(c.author_id, who.id),
        eq(c.at_s, input.at_s),
        input.end_s === null ? isNull(c.end_s) : eq(c.end_s, input.end_s),
        eq(c.text, input.text),
        eq(c.shared, input.shared),
        gte(c.created_at, new Date(now.getTime() - COMMENT_REPEAT_WINDOW_MS)),
      );
      const col = (k: keyof typeof c.$inferSelect) => sql.identifier(c[k].name);
      const made = await write(track.user_id, input.shared, () =>
        db.all<{ id: number }>(sql`
          insert into ${c} (${col("track_id")}, ${col("author_id")}, ${col("at_s")}, ${col("end_s")}, ${col("text")}, ${
          col("shared")
        }, ${col("created_at")}, ${col("updated_at")})
          select ${trackId}, ${who.id}, ${input.at_s}, ${input.end_s}, ${input.text}, ${
          input.shared ? 1 : 0
        }, ${now.getTime()}, ${now.getTime()}
          where not exists (select 1 from ${c} where ${same})
          returning ${col("id")}`));
      if (made[0]) return await one(trackId, Number(made[0].id));
      const [earlier] = await db.select({ id: c.id }).from(c).where(same).orderBy(asc(c.id)).limit(1);
      if (!earlier) throw notFound(COMMENT_TEXTS.notFound);
      return { ...(await one(trackId, earlier.id)), repeated: true };
    },

    async update(who: Viewer, trackId: number, commentId: number, patch: CommentPatch): Promise<CommentView> {
      const track = await trackFor(who, trackId);
      const stored = await owned(who, trackId, commentId);
      const at = patch.at_s ?? stored.at_s;
      const end = patch.end_s !== undefined ? patch.end_s : stored.end_s;
      checkWithin(at, end, track.length_s);
      const set: Partial<typeof c.$inferInsert> = { updated_at: ctx.clock.now() };
      if (patch.at_s !== undefined) set.at_s = patch.at_s;
      if (patch.end_s !== undefined) set.end_s = patch.end_s;
      if (patch.text !== undefined) set.text = patch.text;
      if (patch.shared !== undefined) set.shared = patch.shared;
      // Shared before or after: the artist's answers change.
      await write(
        track.user_id,
        stored.shared || patch.shared === true,
        () => db.update(c).set(set).where(and(eq(c.id, commentId), eq(c.track_id, trackId))),
      );
      return await one(trackId, commentId);
    },

    async remove(who: Viewer, trackId: number, commentId: number): Promise<{ id: number }> {
      const track = await trackFor(who, trackId);
      const stored = await owned(who, trackId, commentId);
      await write(
        track.user_id,
        stored.shared,
        () => db.delete(c).where(and(eq(c.id, commentId), eq(c.track_id, trackId))),
      );
      return { id: commentId };
    },
  };
}

export type TrackComments = ReturnType<typeof createTrackComments>;
