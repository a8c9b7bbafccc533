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
    const dirs = sql.join(mine.map((d) => sql`${d}`), sql`, `);
    const from = window.from.getTime();
    const to = window.to.getTime();
    const settled = now.getTime() - PROMISE_MS;
    const period = sql`upload_date >= ${from} AND upload_date < ${to} AND direction IN (${dirs})`;
    const who = (column: string) =>
      staff === "all" ? sql.raw(`${column} IS NOT NULL`) : sql`${sql.raw(column)} = ${staff}`;
    // The counts: one pass over the period's pairs per grouping (decision 0237).
    const rows = await db.all<Row>(sql`
      SELECT 'd' AS kind, direction AS k, count(*) AS a, count(listen_ms) AS b, count(decide_ms) AS c,
        coalesce(sum(decide_ms <= ${PROMISE_MS}), 0) AS d,
        coalesce(sum(decide_ms IS NOT NULL OR upload_date < ${settled}), 0) AS e
      FROM track_pair_facts INDEXED BY track_pair_facts_direction_upload_idx WHERE ${period} GROUP BY direction
      UNION ALL
      SELECT 'uh', listen_by, NULL, count(*), NULL, NULL, NULL
      FROM track_pair_facts INDEXED BY track_pair_facts_listen_by_idx
      WHERE ${who("listen_by")} AND listen_ms IS NOT NULL AND ${period} GROUP BY listen_by
      UNION ALL
      SELECT 'uc', decide_by, NULL, NULL, count(*), coalesce(sum(decide_ms <= ${PROMISE_MS}), 0), count(*)
      FROM track_pair_facts INDEXED BY track_pair_facts_decide_by_idx
      WHERE ${who("decide_by")} AND decide_ms IS NOT NULL AND ${period} GROUP BY decide_by`);

    // The percentiles: nearest rank, the value at rank ⌈p·n⌉ of the group's n sorted times, read by
    // walking the group's (…, time) index from the nearer end: ⌈n/2⌉ from below, ⌈9n/10⌉ from above.
    const walks: ReturnType<typeof sql>[] = [];
    const walk = (f: Figures, key: ReturnType<typeof sql>, index: string, time: string, n: number, into: string) => {
      if (n <= 0) return;
      const median = Math.floor((n + 1) / 2);
      const p90 = Math.floor((9 * n + 9) / 10);
      const one = (order: string, offset: number) =>
        sql`(SELECT ${sql.raw(time)} FROM track_pair_facts INDEXED BY ${sql.raw(index)}
          WHERE ${key} AND ${sql.raw(time)} IS NOT NULL AND ${period}
          ORDER BY ${sql.raw(time)} ${sql.raw(order)} LIMIT 1 OFFSET ${offset})`;
      const i = targets.length;
      targets.push(f[into as "to_listen" | "to_decision"]);
      walks.push(sql`SELECT ${i} AS i, ${one("ASC", median - 1)} AS m, ${one("DESC", n - p90)} AS p`);
    };
    const targets: Percentiles[] = [];

    for (const r of rows) {
      const f = figuresOf(r.kind, r.k);
      if (!f) continue;
      if (r.kind === "d") {
        f.received = Number(r.a);
        f.heard = Number(r.b);
        f.decided = Number(r.c);
        f.within_promise = { kept: Number(r.d), due: Number(r.e), share: null };
        const d = sql`direction = ${r.k}`;
        walk(f, d, "track_pair_facts_direction_listen_idx", "listen_ms", f.heard, "to_listen");
        walk(f, d, "track_pair_facts_direction_decide_idx", "decide_ms", f.decided, "to_decision");
      } else if (r.kind === "uh") {
        f.heard = Number(r.b);
        const u = sql`listen_by = ${Number(r.k)}`;
        walk(f, u, "track_pair_facts_listen_by_idx", "listen_ms", f.heard, "to_listen");
      } else if (r.kind === "uc") {
        f.decided = Number(r.c);
        f.within_promise = { kept: Number(r.d), due: Number(r.e), share: null };
        const u = sql`decide_by = ${Number(r.k)}`;
        walk(f, u, "track_pair_facts_decide_by_idx", "decide_ms", f.decided, "to_decision");
      }
    }
    if (walks.length > 0) {
      const found = await db.all<{ i: number; m: number | null; p: number | null }>(
        sql.join(walks, sql` UNION ALL `),
      );
      for (const w of found) {
        targets[Number(w.i)].median_s = seconds(w.m);
        targets[Number(w.i)].p90_s = seconds(w.p);
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
