import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { trackDecisions, trackPairReasons } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { REASON_OUTCOMES } from "../../domain/decline-reasons.ts";
import type { DeclineReason } from "../../domain/decline-reasons.ts";

/** What of a change (decisions.ts `PairChange`) its reasons' row needs. */
interface ReasonChange {
  trackId: number;
  direction: string;
  before: { revision: number };
  after: { status: string };
  reasons?: readonly DeclineReason[];
}

/**
 * Decline reasons (issue 37): written with the decision's batch, one row per change that names
 * some, under the revision the change makes (its history entry's), so a pair shows the reasons of
 * its current decision and the response figures can count them per decider.
 */

/** SQL: the JSON list of reasons of the pair of the `trackDecisions` row at `revision`, or null. */
export const pairReasonsSql = (revision: typeof trackDecisions.revision) =>
  sql`(SELECT ${trackPairReasons.reasons} FROM ${trackPairReasons}
    WHERE ${trackPairReasons.track_id} = ${trackDecisions.track_id}
      AND ${trackPairReasons.direction} = ${trackDecisions.direction}
      AND ${trackPairReasons.revision} = ${revision})`;

/** The statements of a decision call's reasons, for its batch (after the history rows). */
export function reasonStatements(db: Db, changes: readonly ReasonChange[]): BatchItem<"sqlite">[] {
  return changes
    .filter((c) => c.reasons && c.reasons.length > 0 && (REASON_OUTCOMES as readonly string[]).includes(c.after.status))
    .map((c) =>
      db.insert(trackPairReasons).values({
        track_id: c.trackId,
        direction: c.direction,
        revision: c.before.revision + 1,
        reasons: JSON.stringify(c.reasons),
      }).onConflictDoUpdate({
        target: [trackPairReasons.track_id, trackPairReasons.direction, trackPairReasons.revision],
        set: { reasons: JSON.stringify(c.reasons) },
      })
    );
}
