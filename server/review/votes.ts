import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { inScope, type Scope } from "../../domain/scope.ts";
import { needsSecondEar, seesVotes, type VoteFilter, type VoteValue } from "../../domain/votes.ts";
import { tracks, trackVotes, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { DecisionView, Namer } from "./decisions.ts";

/**
 * Staff votes (issue 24, docs/decisions/0229 and 0230): the SQL the track object and the list's
 * `votes` filter and `score` sort are built from, the per-direction summary, and the writes. Who may
 * vote (the track in sight, the direction the track's and in scope) is checked by the tracks
 * service before it calls here; who sees which votes is `seesVotes` (domain/votes.ts), applied to
 * the answer here and repeated as SQL for the list (`visibleVotesSql`).
 */

/** Who reads the votes: their id (to find their own) and whether they are the decider (an admin). */
export interface Voter {
  id: number;
  is_admin: boolean;
}

/** One vote as staff see it. */
export interface VoteView {
  direction: Direction;
  user_id: number;
  /** The voter's display name. */
  name: string;
  vote: VoteValue;
  word: string | null;
  /** ISO 8601. */
  voted_at: string;
}

/** One direction's votes in short, for the queue (decision 0230). */
export interface VoteSummary {
  direction: Direction;
  /** How many have voted: always shown, so the queue can say "one ear so far". */
  count: number;
  /** The sum of the votes; null while the caller may not see them (decision 0229). */
  score: number | null;
  /** Exactly one vote, or both a 👍 and a 👎, and the pair not decided. */
  second_ear: boolean;
  /** The caller's own vote on the pair, or null. */
  my_vote: VoteValue | null;
}

/** A stored vote as the row's JSON subquery gives it. */
export interface VoteJson {
  direction: string;
  user_id: number;
  vote: number;
  word: string | null;
  voted_at: number;
  username: string;
  first: string | null;
  last: string | null;
}

const voters = alias(users, "voters");

/** `'votes', [...]` for a `json_object` over a tracks row: every stored vote with its voter's name. */
export const votesJsonField = sql`'votes', json((SELECT json_group_array(json_object(
  'direction', ${trackVotes.direction}, 'user_id', ${trackVotes.user_id}, 'vote', ${trackVotes.vote},
  'word', ${trackVotes.word}, 'voted_at', ${trackVotes.voted_at}, 'username', ${voters.username},
  'first', ${voters.first_name}, 'last', ${voters.last_name}))
  FROM ${trackVotes} JOIN ${users} AS "voters" ON ${voters.id} = ${trackVotes.user_id}
  WHERE ${trackVotes.track_id} = ${tracks.id}))`;

const isDecided = (d: DecisionView | undefined) => d?.status === "accepted" || d?.status === "declined";

/**
 * The votes and summaries of a track for one caller: only the directions of the track within
 * `scope`; the votes of a pair only where `seesVotes` lets the caller see them (decision 0229). A
 * caller known only by a scope (internal reads) sees counts and no votes.
 */
export function voteViews(
  directions: string,
  decisions: readonly DecisionView[],
  stored: readonly VoteJson[] | null,
  scope: Scope,
  voter: Voter | undefined,
  name: Namer,
): { votes: VoteView[]; vote_summary: VoteSummary[] } {
  const votes: VoteView[] = [];
  const vote_summary: VoteSummary[] = [];
  for (const direction of parseDirections(directions)) {
    if (!inScope(direction, scope)) continue;
    const pair = (stored ?? []).filter((v) => v.direction === direction)
      .sort((a, b) => a.voted_at - b.voted_at || a.user_id - b.user_id);
    const decided = isDecided(decisions.find((d) => d.direction === direction));
    const mine = voter ? pair.find((v) => v.user_id === voter.id) : undefined;
    const visible = voter !== undefined && seesVotes(voter, mine !== undefined, decided);
    if (visible) {
      for (const v of pair) {
        votes.push({
          direction,
          user_id: v.user_id,
          name: name({ username: v.username, first_name: v.first, last_name: v.last }),
          vote: v.vote as VoteValue,
          word: v.word,
          voted_at: new Date(v.voted_at).toISOString(),
        });
      }
    }
    vote_summary.push({
      direction,
      count: pair.length,
      score: visible && pair.length > 0 ? pair.reduce((s, v) => s + v.vote, 0) : null,
      second_ear: needsSecondEar(pair.map((v) => v.vote), decided),
      my_vote: mine ? mine.vote as VoteValue : null,
    });
  }
  return { votes, vote_summary };
}

/** Records the caller's vote on the pair, replacing their earlier one. */
export async function castVote(
  db: Db,
  v: { trackId: number; direction: Direction; userId: number; vote: VoteValue; word: string | null; at: Date },
): Promise<void> {
  await db.insert(trackVotes)
    .values({
      track_id: v.trackId,
      direction: v.direction,
      user_id: v.userId,
      vote: v.vote,
      word: v.word,
      voted_at: v.at,
    })
    .onConflictDoUpdate({
      target: [trackVotes.track_id, trackVotes.direction, trackVotes.user_id],
      set: { vote: v.vote, word: v.word, voted_at: v.at },
    });
}

/** Withdraws the caller's vote on the pair (nothing when there is none). */
export async function withdrawVote(db: Db, trackId: number, direction: Direction, userId: number): Promise<void> {
  await db.delete(trackVotes).where(and(
    eq(trackVotes.track_id, trackId),
    eq(trackVotes.direction, direction),
    eq(trackVotes.user_id, userId),
  ));
}

// --- The list: filter and sort (decision 0230) ------------------------------------------------------

const v = alias(trackVotes, "v");
const mine = alias(trackVotes, "mine");
const voted = alias(tracks, "voted");

/** The vote's direction is one of its track's current ones, within `within` (`*`: any). */
function pairSql(within: readonly Direction[] | "*"): SQL {
  const current = sql`instr(',' || ${voted.directions} || ',', ',' || ${v.direction} || ',') > 0`;
  if (within === "*") return current;
  if (within.length === 0) return sql`0`;
  return sql`(${current} AND ${inArray(v.direction, [...within])})`;
}

/** The vote's pair is accepted or declined (read from the row's `review` copy, decision 0150). */
const decidedSql = sql`(instr(',' || ${voted.review} || ',', ',' || ${v.direction} || ':accepted,') > 0
  OR instr(',' || ${voted.review} || ',', ',' || ${v.direction} || ':declined,') > 0)`;

/** `seesVotes` as SQL over the vote row `v`. */
function visibleSql(voter: Voter): SQL {
  if (voter.is_admin) return sql`1`;
  return sql`(${decidedSql} OR EXISTS (SELECT 1 FROM ${trackVotes} AS "mine" WHERE ${mine.track_id} = ${v.track_id}
    AND ${mine.direction} = ${v.direction} AND ${mine.user_id} = ${voter.id}))`;
}

/**
 * Per track, the sum and number of the votes the caller may see among the pairs `within`: the
 * score the list sorts by and its `positive` / `negative` filters read. Aggregated over the votes
 * table alone (a few rows per voted track), then joined to the tracks.
 */
export function visibleScores(db: Db, voter: Voter, within: readonly Direction[] | "*") {
  return db
    .select({
      track_id: sql<number>`${v.track_id}`.as("vs_track_id"),
      score: sql<number>`sum(${v.vote})`.as("vs_score"),
      n: sql<number>`count(*)`.as("vs_n"),
    })
    .from(v)
    .innerJoin(voted, eq(voted.id, v.track_id))
    .where(and(pairSql(within), visibleSql(voter)))
    .groupBy(v.track_id)
    .as("vote_scores");
}

/** SQL over a tracks row: the track matches the list's `votes` filter among the pairs `within`. */
export function voteFilterSql(filter: VoteFilter, voter: Voter | undefined, within: readonly Direction[] | "*"): SQL {
  const notFailed = sql`${tracks.status} <> 'failed'`;
  switch (filter) {
    case "second_ear":
      // Every vote counts here, seen or not: the flag says only that another ear is wanted.
      return sql`(${notFailed} AND ${tracks.id} IN (SELECT ${v.track_id} FROM ${trackVotes} AS "v"
        JOIN ${tracks} AS "voted" ON ${voted.id} = ${v.track_id}
        WHERE ${pairSql(within)} AND NOT ${decidedSql}
        GROUP BY ${v.track_id}, ${v.direction}
        HAVING count(*) = 1 OR (max(${v.vote}) > 0 AND min(${v.vote}) < 0)))`;
    case "none":
      return sql`(${notFailed} AND ${tracks.id} NOT IN (SELECT ${v.track_id} FROM ${trackVotes} AS "v"
        JOIN ${tracks} AS "voted" ON ${voted.id} = ${v.track_id} WHERE ${pairSql(within)}))`;
    case "positive":
    case "negative": {
      // Only the votes the caller sees make a score (decision 0229): none seen, no match.
      if (!voter) return sql`0`;
      const sign = filter === "positive" ? sql`> 0` : sql`< 0`;
      return sql`${tracks.id} IN (SELECT ${v.track_id} FROM ${trackVotes} AS "v"
        JOIN ${tracks} AS "voted" ON ${voted.id} = ${v.track_id}
        WHERE ${pairSql(within)} AND ${visibleSql(voter)} GROUP BY ${v.track_id} HAVING sum(${v.vote}) ${sign})`;
    }
  }
}
