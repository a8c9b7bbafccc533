import { sql } from "drizzle-orm";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { OVERDUE_AFTER_DAYS } from "../../domain/review.ts";
import { inScope, type Scope, scopeOf } from "../../domain/scope.ts";
import { users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { PersonView } from "./decisions.ts";
import { displayName } from "./views.ts";

/**
 * The dashboards' response figures (issue 24; definitions: docs/decisions/0235, the SQL and its
 * cost: 0236). For the (track, direction) pairs of the tracks uploaded in the period (failed
 * uploads are never under review): how many were received, heard, decided; the median and the 90th
 * percentile of the time from the upload to the first listen and to the decision; and the share of
 * pairs decided within the promise of OVERDUE_AFTER_DAYS.
 *
 * - **heard** at the pair's first counted history entry to any state but `new`: a listening mark
 *   (20 s played, 0197) or a decision, shortlisting included (a decided pair was heard);
 * - **decided** at its first counted `accepted` or `declined` entry (shortlisting is a working
 *   state, as on the desk);
 * - **counted**: not an undo's entry and not written by a call that was undone (0222);
 * - per staff member: heard by whoever made the first counted entry, decided by whoever made the
 *   first decision; their `received` is the pairs of their directions.
 *
 * Everything is one SQL statement: the pairs' facts once (a materialized CTE), grouped per
 * direction and per person, percentiles by `row_number()` over each group's sorted times (nearest
 * rank: the value at rank ⌈p·n⌉), so only a few dozen rows come back whatever the history's size.
 */

const DAY_MS = 86_400_000;
export const PROMISE_MS = OVERDUE_AFTER_DAYS * DAY_MS;

export interface Percentiles {
  /** Seconds; null when no pair has the time. */
  median_s: number | null;
  p90_s: number | null;
}

export interface WithinPromise {
  /** Pairs decided within OVERDUE_AFTER_DAYS of the upload. */
  kept: number;
  /** Pairs whose promise is settled: decided within it, or not decided and its days are over. */
  due: number;
  /** kept / due, 0..1; null while nothing is due. */
  share: number | null;
}

interface Figures {
  received: number;
  heard: number;
  decided: number;
  to_listen: Percentiles;
  to_decision: Percentiles;
  within_promise: WithinPromise;
}

export type DirectionFigures = { direction: Direction } & Figures;
export type StaffFigures = { user: PersonView } & Figures;

export interface ResponseFigures {
  /** The period's name and bounds (tracks uploaded from `from`, before `to`). */
  period: { name: string; from: string; to: string };
  promise_days: number;
  by_direction: DirectionFigures[];
  by_staff: StaffFigures[];
}

export interface FiguresWindow {
  name: string;
  from: Date;
  to: Date;
}

const empty = (): Figures => ({
  received: 0,
  heard: 0,
  decided: 0,
  to_listen: { median_s: null, p90_s: null },
  to_decision: { median_s: null, p90_s: null },
  within_promise: { kept: 0, due: 0, share: null },
});

const seconds = (ms: unknown) => (ms === null || ms === undefined ? null : Math.round(Number(ms) / 1000));

interface Row {
  kind: string;
  k: string | number;
  a: number | null;
  b: number | null;
  c: number | null;
  d: number | null;
  e: number | null;
}

/**
 * The figures of the directions in `scope`; `staff` names whose rows come back: every staff member
 * (and anyone with an entry in the period) for "all", or the one id.
 */
export async function responseFigures(
  db: Db,
  scope: Scope,
  window: FiguresWindow,
  now: Date,
  staff: "all" | number,
): Promise<ResponseFigures> {
  const mine = DIRECTIONS.filter((d) => inScope(d, scope));
  const byDirection = new Map<Direction, Figures>(mine.map((d) => [d, empty()]));
  const byUser = new Map<number, Figures>();
  const figuresOf = (kind: string, k: string | number): Figures | undefined => {
    if (kind === "d" || kind.startsWith("pd")) return byDirection.get(k as Direction);
    const id = Number(k);
    if (staff !== "all" && id !== staff) return undefined;
    if (!byUser.has(id)) byUser.set(id, empty());
    return byUser.get(id);
  };

  if (mine.length > 0) {
    const dirs = sql.join(mine.map((d) => sql`(${d})`), sql`, `);
    const from = window.from.getTime();
    const to = window.to.getTime();
    const settled = now.getTime() - PROMISE_MS;
    // Ranks of the nearest-rank percentiles within a group of n: ⌈n/2⌉ and ⌈9n/10⌉.
    const pct = (kind: string, key: string, value: string) =>
      sql.raw(`SELECT '${kind}' AS kind, k, v AS a, rn AS b, n AS c, NULL AS d, NULL AS e FROM (
        SELECT ${key} AS k, ${value} AS v,
          row_number() OVER (PARTITION BY ${key} ORDER BY ${value}) AS rn,
          count(*) OVER (PARTITION BY ${key}) AS n
        FROM facts WHERE ${value} IS NOT NULL AND ${key} IS NOT NULL)
      WHERE rn = (n + 1) / 2 OR rn = (9 * n + 9) / 10`);
    const query = sql`
      WITH dirs(d) AS (VALUES ${dirs}),
      pairs AS MATERIALIZED (
        SELECT t.id AS track_id, dirs.d AS direction, t.upload_date AS up
        FROM tracks t JOIN dirs ON instr(',' || t.directions || ',', ',' || dirs.d || ',') > 0
        WHERE t.upload_date >= ${from} AND t.upload_date < ${to} AND t.status <> 'failed'
      ),
      -- The pairs first, then each pair's entries through the (track_id, direction, revision) index:
      -- left alone, the planner scans the whole history (decision 0236).
      ev AS MATERIALIZED (
        SELECT h.track_id, h.direction, h.revision, h.to_status, h.decided_by, h.decided_at
        FROM pairs p CROSS JOIN track_decision_history h ON h.track_id = p.track_id AND h.direction = p.direction
        WHERE h.undoes IS NULL AND h.to_status <> 'new' AND (h.call_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM track_decision_history u
          WHERE u.track_id = h.track_id AND u.direction = h.direction AND u.undoes = h.call_id))
      ),
      heard AS (
        SELECT track_id, direction, min(revision) AS r, decided_at AS at, decided_by AS who
        FROM ev GROUP BY track_id, direction
      ),
      decided AS (
        SELECT track_id, direction, min(revision) AS r, decided_at AS at, decided_by AS who
        FROM ev WHERE to_status IN ('accepted', 'declined') GROUP BY track_id, direction
      ),
      facts AS MATERIALIZED (
        SELECT p.direction AS direction, p.up AS up,
          hd.at - p.up AS listen_ms, hd.who AS listen_by,
          dc.at - p.up AS decide_ms, dc.who AS decide_by
        FROM pairs p
        LEFT JOIN heard hd ON hd.track_id = p.track_id AND hd.direction = p.direction
        LEFT JOIN decided dc ON dc.track_id = p.track_id AND dc.direction = p.direction
      )
      SELECT 'd' AS kind, direction AS k, count(*) AS a, count(listen_ms) AS b, count(decide_ms) AS c,
        coalesce(sum(decide_ms <= ${PROMISE_MS}), 0) AS d,
        coalesce(sum(decide_ms IS NOT NULL OR up < ${settled}), 0) AS e
      FROM facts GROUP BY direction
      UNION ALL
      SELECT 'uh', listen_by, NULL, count(*), NULL, NULL, NULL FROM facts WHERE listen_by IS NOT NULL GROUP BY listen_by
      UNION ALL
      SELECT 'uc', decide_by, NULL, NULL, count(*), coalesce(sum(decide_ms <= ${PROMISE_MS}), 0), count(*)
      FROM facts WHERE decide_by IS NOT NULL GROUP BY decide_by
      UNION ALL ${pct("pdl", "direction", "listen_ms")}
      UNION ALL ${pct("pdd", "direction", "decide_ms")}
      UNION ALL ${pct("pul", "listen_by", "listen_ms")}
      UNION ALL ${pct("pud", "decide_by", "decide_ms")}`;
    const rows = await db.all<Row>(query);

    for (const r of rows) {
      const f = figuresOf(r.kind, r.k);
      if (!f) continue;
      if (r.kind === "d") {
        f.received = Number(r.a);
        f.heard = Number(r.b);
        f.decided = Number(r.c);
        f.within_promise = { kept: Number(r.d), due: Number(r.e), share: null };
      } else if (r.kind === "uh") {
        f.heard = Number(r.b);
      } else if (r.kind === "uc") {
        f.decided = Number(r.c);
        f.within_promise = { kept: Number(r.d), due: Number(r.e), share: null };
      } else {
        const target = r.kind.endsWith("l") ? f.to_listen : f.to_decision;
        const n = Number(r.c);
        const rn = Number(r.b);
        if (rn === Math.floor((n + 1) / 2)) target.median_s = seconds(r.a);
        if (rn === Math.floor((9 * n + 9) / 10)) target.p90_s = seconds(r.a);
      }
    }
  }

  // Who the staff rows name: every current staff member for an administrator (a quiet colleague
  // shows zeros), and anyone who has a counted entry in the period; the caller alone otherwise.
  const people = await db
    .select({
      id: users.id,
      username: users.username,
      first_name: users.first_name,
      last_name: users.last_name,
      is_admin: users.is_admin,
      is_moderator: users.is_moderator,
      moderator_categories: users.moderator_categories,
    })
    .from(users)
    .where(
      staff === "all"
        ? sql`${users.is_admin} = 1 OR ${users.is_moderator} = 1 OR ${users.id} IN (${
          sql.join([0, ...byUser.keys()].map((id) => sql`${id}`), sql`, `)
        })`
        : sql`${users.id} = ${staff}`,
    )
    .orderBy(users.username);

  const by_staff = people.map((p): StaffFigures => {
    const f = byUser.get(p.id) ?? empty();
    // Received: the pairs of the period in the directions the person covers (their categories;
    // everything for an administrator), as far as the answer's scope reaches.
    const theirs = p.is_admin || p.is_moderator ? scopeOf(p) : [];
    const covers = (d: Direction) => inScope(d, theirs);
    f.received = [...byDirection].reduce((n, [d, df]) => n + (covers(d) ? df.received : 0), 0);
    return { user: { id: p.id, username: p.username, name: displayName(p) }, ...withShare(f) };
  });

  return {
    period: { name: window.name, from: window.from.toISOString(), to: window.to.toISOString() },
    promise_days: OVERDUE_AFTER_DAYS,
    by_direction: mine.map((d) => ({ direction: d, ...withShare(byDirection.get(d)!) })),
    by_staff,
  };
}

function withShare(f: Figures): Figures {
  const { kept, due } = f.within_promise;
  return { ...f, within_promise: { kept, due, share: due > 0 ? Math.round((kept / due) * 1000) / 1000 : null } };
}
