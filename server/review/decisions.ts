import { and, asc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { isOverdue, respondBy } from "../../domain/response-promise.ts";
import {
  type ArtistReviewStatus,
  artistReviewStatus,
  isAwaitingDecision,
  isReviewStatus,
  type ReviewStatus,
} from "../../domain/review.ts";
import { trackDecisionHistory, trackDecisions, tracks, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { hasDirectionSql } from "../tracks/scope.ts";
import { type DeclineReason, reasonsFromJson } from "../../domain/decline-reasons.ts";
import { pairReasonsSql } from "./reasons.ts";

/**
 * The review state of each (track, direction) pair and its history (issue 13,
 * docs/decisions/0150–0153): the SQL the tracks service builds its answers and filters from, and
 * the batch statements of a change. Who may read or change a pair is decided by the tracks
 * service, which is the only caller; this module never looks at a scope's meaning.
 */

/** Who made a change, as the staff screens show a person. */
export interface PersonView {
  id: number;
  username: string;
  name: string;
}

/** One direction of a track as staff see it. */
export interface DecisionView {
  direction: Direction;
  status: ReviewStatus;
  /** For staff only. */
  note: string | null;
  /** For the artist. */
  message: string | null;
  decided_by: PersonView | null;
  /** ISO 8601; null while nobody has touched the pair. */
  decided_at: string | null;
  /**
   * How many changes the pair has had (0 while nobody has touched it). A decision write sends the
   * revision its form was made from; another one answers 409 with the current decision (0199).
   */
  revision: number;
  /**
   * The response promise (issue 25): the upload date plus the direction's `promise_days`, ISO 8601;
   * null once the pair is accepted or declined, and for a failed upload.
   */
  respond_by: string | null;
  /** Past `respond_by` and still awaiting a decision (new or listened). */
  overdue: boolean;
  /** The decline reasons the pair's current decision named (issue 37); empty for none. */
  reasons: DeclineReason[];
}

/** One direction of a track as its artist sees it: never the note, never who decided. */
export interface ArtistDecisionView {
  direction: Direction;
  status: ArtistReviewStatus;
  message: string | null;
  /** «ответ до …» (issue 25): ISO 8601, null once answered (accepted or declined). */
  respond_by: string | null;
  /** The answer was the automatic decline of a promise not kept, not a person's (issue 25). */
  automatic: boolean;
  /** The decline reasons of the decision shown (issue 37); empty for none. */
  reasons: DeclineReason[];
}

/** What the promise of a track's pairs is reckoned from (issue 25). */
export interface PromiseBasis {
  /** The upload's time, ms. */
  uploadMs: number;
  /** Each direction's promise in days (server/intake/rules.ts `promiseDays`). */
  days: Readonly<Record<Direction, number>>;
  now: Date;
}

/** The pair's promise date, null once it is answered (accepted or declined) or when there is no basis. */
function respondByOf(direction: Direction, status: ReviewStatus, basis: PromiseBasis | undefined): Date | null {
  if (!basis || status === "accepted" || status === "declined") return null;
  return respondBy(basis.uploadMs, basis.days[direction]);
}

export interface DecisionHistoryEntry {
  id: number;
  direction: Direction;
  from: ReviewStatus;
  to: ReviewStatus;
  note: string | null;
  message: string | null;
  decided_by: PersonView | null;
  /** ISO 8601. */
  decided_at: string;
  /** Written by the automatic decline of a promise not kept (issue 25); `decided_by` is then null. */
  automatic: boolean;
}

/** A stored pair as the JSON subquery gives it. */
export interface DecisionJson {
  direction: string;
  status: string;
  note: string | null;
  message: string | null;
  decided_at: number | null;
  revision?: number | null;
  by_id: number | null;
  by_username: string | null;
  by_first: string | null;
  by_last: string | null;
  /** JSON list of decline reasons (issue 37). */
  reasons?: string | null;
}

export type Namer = (u: { username: string; first_name: string | null; last_name: string | null }) => string;

const deciders = alias(users, "deciders");

/**
 * `'decisions', [...]` for a `json_object` over a tracks row: the track's stored pairs with the
 * decider's name, one correlated primary-key range read per row.
 */
export const decisionsJsonField = sql`'decisions', json((SELECT json_group_array(json_object(
  'direction', ${trackDecisions.direction}, 'status', ${trackDecisions.status}, 'note', ${trackDecisions.note},
  'message', ${trackDecisions.message}, 'decided_at', ${trackDecisions.decided_at}, 'revision', ${trackDecisions.revision},
  'by_id', ${deciders.id}, 'by_username', ${deciders.username}, 'by_first', ${deciders.first_name},
  'by_last', ${deciders.last_name},
  'reasons', ${pairReasonsSql(trackDecisions.revision)}))
  FROM ${trackDecisions} LEFT JOIN ${users} AS "deciders" ON ${deciders.id} = ${trackDecisions.decided_by}
  WHERE ${trackDecisions.track_id} = ${tracks.id}))`;

/**
 * SQL twin of domain/artist-notice.ts `withinHold`: a change made at `decidedAt` is still within its
 * hold when it is later than `since`, the start of the hold (now − DECISION_NOTIFY_HOLD_S, ms).
 */
export const withinHoldSql = (decidedAt: SQL | typeof trackDecisions.decided_at, since: SQL | number | Placeholder) =>
  sql`coalesce(${decidedAt} > ${since}, 0)`;

/**
 * The artist's side needs neither the note nor the decider. A change made after `shownBefore` (the
 * start of the notification hold, now − DECISION_NOTIFY_HOLD_S, a ms timestamp or a placeholder)
 * may still be undone, so the artist sees the state before it (docs/decisions/0223).
 */
export const artistDecisionsJson = (shownBefore: SQL | number | Placeholder) => {
  const held = withinHoldSql(trackDecisions.decided_at, shownBefore);
  // Whether the change shown is the automatic decline (issue 25): its history entry, by the unique
  // (track, direction, revision) index.
  const automatic = sql`(SELECT ${trackDecisionHistory.automatic} FROM ${trackDecisionHistory}
    WHERE ${trackDecisionHistory.track_id} = ${trackDecisions.track_id}
      AND ${trackDecisionHistory.direction} = ${trackDecisions.direction}
      AND ${trackDecisionHistory.revision} = ${trackDecisions.revision})`;
  return sql<string>`(SELECT json_group_array(json_object(
  'direction', ${trackDecisions.direction},
  'status', CASE WHEN ${held} THEN coalesce(${trackDecisions.shown_status}, 'new') ELSE ${trackDecisions.status} END,
  'message', CASE WHEN ${held} THEN ${trackDecisions.shown_message} ELSE ${trackDecisions.message} END,
  'automatic', CASE WHEN ${held} THEN 0 ELSE coalesce(${automatic}, 0) END,
  'reasons', CASE WHEN ${held} THEN NULL ELSE ${pairReasonsSql(trackDecisions.revision)} END))
  FROM ${trackDecisions} WHERE ${trackDecisions.track_id} = ${tracks.id})`;
};

const person = (
  r: Pick<DecisionJson, "by_id" | "by_username" | "by_first" | "by_last">,
  name: Namer,
): PersonView | null =>
  r.by_id !== null && r.by_username !== null
    ? {
      id: r.by_id,
      username: r.by_username,
      name: name({ username: r.by_username, first_name: r.by_first, last_name: r.by_last }),
    }
    : null;

/** One entry per current direction of the track, in the canonical order; a pair without a row is `new`. */
export function decisionViews(
  directions: string,
  stored: readonly DecisionJson[] | null,
  name: Namer,
  basis?: PromiseBasis,
): DecisionView[] {
  const byDirection = new Map((stored ?? []).map((s) => [s.direction, s]));
  const promise = (direction: Direction, status: ReviewStatus) => {
    const by = respondByOf(direction, status, basis);
    return {
      respond_by: by?.toISOString() ?? null,
      overdue: by !== null && isAwaitingDecision(status) &&
        isOverdue(basis!.uploadMs, basis!.now, basis!.days[direction]),
    };
  };
  return parseDirections(directions).map((direction) => {
    const s = byDirection.get(direction);
    if (!s || !isReviewStatus(s.status)) {
      return {
        direction,
        status: "new",
        note: null,
        message: null,
        decided_by: null,
        decided_at: null,
        revision: s?.revision ?? 0,
        ...promise(direction, "new"),
        reasons: [],
      };
    }
    return {
      direction,
      status: s.status,
      note: s.note,
      message: s.message,
      decided_by: person(s, name),
      decided_at: s.decided_at === null ? null : new Date(s.decided_at).toISOString(),
      revision: s.revision ?? 0,
      ...promise(direction, s.status),
      reasons: reasonsFromJson(s.reasons),
    };
  });
}

/**
 * The artist's view of a track's directions. A failed upload was never reviewed, so it has none
 * (decision 0154); every other one has an entry per direction.
 */
export function artistDecisionViews(
  directions: string,
  trackStatus: string,
  storedJson: string | readonly ArtistDecisionJson[] | null,
  basis?: Omit<PromiseBasis, "now">,
): ArtistDecisionView[] {
  if (trackStatus === "failed") return [];
  // A string from a column of its own; already parsed inside a row's JSON object.
  const stored = typeof storedJson === "string" ? JSON.parse(storedJson) as ArtistDecisionJson[] : storedJson ?? [];
  const byDirection = new Map(stored.map((s) => [s.direction, s]));
  return parseDirections(directions).map((direction) => {
    const s = byDirection.get(direction);
    const known = s !== undefined && isReviewStatus(s.status);
    const status = known ? s.status as ReviewStatus : "new";
    return {
      direction,
      status: artistReviewStatus(status),
      message: known ? s.message : null,
      respond_by: respondByOf(direction, status, basis && { ...basis, now: new Date(0) })?.toISOString() ?? null,
      automatic: known && Boolean(s.automatic),
      reasons: known ? reasonsFromJson(s.reasons) : [],
    };
  });
}

/** A pair as `artistDecisionsJson` gives it. */
export type ArtistDecisionJson = Pick<DecisionJson, "direction" | "status" | "message" | "reasons"> & {
  automatic?: number | null;
};

/**
 * Does the track wait for the caller: a pair of theirs is still `new` or `listened` and the upload
 * did not fail (decision 0152). Its waiting time runs from the upload.
 */
export function awaitsCaller(
  trackStatus: string,
  decisions: readonly DecisionView[],
  mine: (d: Direction) => boolean,
): boolean {
  if (trackStatus === "failed") return false;
  return decisions.some((d) => mine(d.direction) && isAwaitingDecision(d.status));
}

const reviewList = sql`(',' || ${tracks.review} || ',')`;

/** Entries of a comma list column (0 for an empty one). */
const entries = (column: typeof tracks.review | typeof tracks.directions) =>
  sql`(CASE WHEN ${column} = '' THEN 0 ELSE length(${column}) - length(replace(${column}, ',', '')) + 1 END)`;

/**
 * SQL: the track has a pair in `status` among `directions` (`*` for all of the track's). It reads
 * `tracks.review`, which holds the states other than `new` of the current directions, so a
 * direction of the track without an entry is `new`. Failed uploads are never under review and never
 * match (decision 0152).
 */
export function reviewFilterSql(status: ReviewStatus, directions: readonly Direction[] | "*"): SQL {
  const notFailed = sql`${tracks.status} <> 'failed'`;
  if (directions === "*") {
    return status === "new"
      ? sql`(${notFailed} AND ${entries(tracks.review)} < ${entries(tracks.directions)})`
      : sql`(${notFailed} AND instr(${reviewList}, ${":" + status + ","}) > 0)`;
  }
  if (directions.length === 0) return sql`0`;
  const pair = (d: Direction) =>
    status === "new"
      ? sql`(${hasDirectionSql(d)} AND instr(${reviewList}, ${"," + d + ":"}) = 0)`
      : sql`instr(${reviewList}, ${"," + d + ":" + status + ","}) > 0`;
  return sql`(${notFailed} AND (${sql.join(directions.map(pair), sql` OR `)}))`;
}

/** What a change needs to know of a stored pair. */
export interface StoredPair {
  status: ReviewStatus;
  note: string | null;
  message: string | null;
  revision: number;
}

const NEW_PAIR: StoredPair = { status: "new", note: null, message: null, revision: 0 };

export async function storedPairs(
  db: Db,
  trackId: number,
  directions: readonly Direction[],
): Promise<Map<Direction, StoredPair>> {
  const rows = directions.length === 0 ? [] : await db
    .select({
      direction: trackDecisions.direction,
      status: trackDecisions.status,
      note: trackDecisions.note,
      message: trackDecisions.message,
      revision: trackDecisions.revision,
    })
    .from(trackDecisions)
    .where(and(eq(trackDecisions.track_id, trackId), inArray(trackDecisions.direction, [...directions])));
  const byDirection = new Map(rows.map((r) => [r.direction, r]));
  return new Map(directions.map((d) => {
    const r = byDirection.get(d);
    return [d, r ? { status: r.status, note: r.note, message: r.message, revision: r.revision } : NEW_PAIR];
  }));
}

/** A change of one pair, as written. */
export interface PairChange {
  trackId: number;
  direction: Direction;
  before: StoredPair;
  after: { status: ReviewStatus; note: string | null; message: string | null };
  /** The user who made it; null for the automatic decline (issue 25). */
  by: number | null;
  at: Date;
  /** DECISION_NOTIFY_HOLD_S in ms: a change within it of the previous one keeps what the artist sees (0223). */
  holdMs: number;
  /** The decision call it belongs to (null: a listening mark or an undo), docs/decisions/0222. */
  callId?: string | null;
  /** An undo's change: the call it reverts. */
  undoes?: string | null;
  /** Made by the response promise's sweep, not a person (issue 25). */
  automatic?: boolean;
  /** The decline reasons the change names (issue 37; review/reasons.ts writes them). */
  reasons?: readonly DeclineReason[];
}

/**
 * The two statements of a change, for the caller's batch: the history row first (numbered
 * `revision + 1`, unique per pair: a second change computed from the same state fails the whole
 * batch instead of being recorded on top of it, which makes the batch a compare-and-set on the
 * pair's revision across instances, decision 0199), then the pair itself, updated only while it
 * is still at `revision`.
 */
export function changeStatements(db: Db, c: PairChange) {
  const revision = c.before.revision + 1;
  const history = db.insert(trackDecisionHistory).values({
    track_id: c.trackId,
    direction: c.direction,
    revision,
    from_status: c.before.status,
    to_status: c.after.status,
    note: c.after.note,
    message: c.after.message,
    decided_by: c.by,
    decided_at: c.at,
    call_id: c.callId ?? null,
    undoes: c.undoes ?? null,
    automatic: c.automatic ?? false,
  });
  // What the artist sees during this change's hold: the state they saw before, which is the stored
  // one unless the stored one is itself still held (docs/decisions/0223).
  const previousHeld = withinHoldSql(trackDecisions.decided_at, c.at.getTime() - c.holdMs);
  const pair = db
    .insert(trackDecisions)
    .values({ track_id: c.trackId, direction: c.direction, ...c.after, decided_by: c.by, decided_at: c.at, revision })
    .onConflictDoUpdate({
      target: [trackDecisions.track_id, trackDecisions.direction],
      set: {
        ...c.after,
        decided_by: c.by,
        decided_at: c.at,
        revision,
        shown_status:
          sql`CASE WHEN ${previousHeld} THEN ${trackDecisions.shown_status} ELSE ${trackDecisions.status} END`,
        shown_message:
          sql`CASE WHEN ${previousHeld} THEN ${trackDecisions.shown_message} ELSE ${trackDecisions.message} END`,
      },
      where: eq(trackDecisions.revision, c.before.revision),
    });
  // The pair's staff card follows from the change: notifications add its edit to the same batch
  // (review/events.ts, decision 0327).
  return [history, pair] as const;
}

/** A batch that failed because another change of the same pair got there first. */
export function isConcurrentChange(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const text = `${(e as { code?: string }).code ?? ""} ${(e as { message?: string }).message ?? ""}`;
    if (/UNIQUE constraint failed|SQLITE_CONSTRAINT_UNIQUE|SQLITE_CONSTRAINT_PRIMARYKEY/.test(text)) return true;
  }
  return false;
}

/** The history of a track's pairs, oldest first. */
export async function decisionHistory(db: Db, trackId: number, name: Namer): Promise<DecisionHistoryEntry[]> {
  const rows = await db
    .select({
      id: trackDecisionHistory.id,
      direction: trackDecisionHistory.direction,
      from: trackDecisionHistory.from_status,
      to: trackDecisionHistory.to_status,
      note: trackDecisionHistory.note,
      message: trackDecisionHistory.message,
      decided_at: trackDecisionHistory.decided_at,
      automatic: trackDecisionHistory.automatic,
      by_id: users.id,
      by_username: users.username,
      by_first: users.first_name,
      by_last: users.last_name,
    })
    .from(trackDecisionHistory)
    .leftJoin(users, eq(users.id, trackDecisionHistory.decided_by))
    .where(eq(trackDecisionHistory.track_id, trackId))
    .orderBy(asc(trackDecisionHistory.decided_at), asc(trackDecisionHistory.id));
  return rows
    .filter((r) => (DIRECTIONS as readonly string[]).includes(r.direction))
    .map((r) => ({
      id: r.id,
      direction: r.direction as Direction,
      from: r.from,
      to: r.to,
      note: r.note,
      message: r.message,
      decided_by: person(r, name),
      decided_at: r.decided_at.toISOString(),
      automatic: r.automatic,
    }));
}
