import { sql } from "drizzle-orm";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { OVERDUE_AFTER_DAYS } from "../../domain/review.ts";
import { promiseCutoffMs, promiseMs } from "../../domain/response-promise.ts";
import { inScope, type Scope, scopeOf } from "../../domain/scope.ts";
import { users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { PersonView } from "./decisions.ts";
import { displayName } from "../tracks/views.ts";

/**
 * The dashboards' response figures (issue 24; definitions: docs/decisions/0235, the SQL and its
 * cost: 0237, superseding 0236). For the (track, direction) pairs of the tracks uploaded in the
 * period (failed uploads are never under review): how many were received, heard, decided; the
 * median and the 90th percentile of the time from the upload to the first listen and to the
 * decision; and the share of pairs decided within the promise of OVERDUE_AFTER_DAYS.
 *
 * - **heard** at the pair's first counted history entry to any state but `new`: a listening mark
 *   (20 s played, 0197) or a decision, shortlisting included (a decided pair was heard);
 * - **decided** at its first counted `accepted` or `declined` entry (shortlisting is a working
 *   state, as on the desk);
 * - **counted**: not an undo's entry and not written by a call that was undone (0222);
 * - per staff member: heard by whoever made the first counted entry, decided by whoever made the
 *   first decision; their `received` is the pairs of their directions.
 *
 * Everything is read from `track_pair_facts` (decision 0237), one row per pair with its upload date
 * and its first heard and first decided (time, who), kept by triggers from the history in the same
 * transaction as every write: the counts in one grouped pass over the period's pairs, then each
 * percentile by one indexed query (`ORDER BY time LIMIT 1 OFFSET rank`), so only a few dozen rows
 * come back whatever the history's size.
 */

// A figure of the past, measured against the default 14 days, not each direction's promise (0239, 0330).
export const PROMISE_MS = promiseMs(OVERDUE_AFTER_DAYS);

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

interface Group {
  direction: string;
  listen_by: number | null;
  decide_by: number | null;
  n: number;
  heard: number;
  decided: number;
  kept: number;
  due: number;
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
  /** How the percentiles are found (tests compare both); by the period's share of all pairs otherwise. */
  percentiles?: "sort" | "walk",
): Promise<ResponseFigures> {
  const mine = DIRECTIONS.filter((d) => inScope(d, scope));
  const byDirection = new Map<Direction, Figures>(mine.map((d) => [d, empty()]));
  const byUser = new Map<number, Figures>();
  const personOf = (k: number): Figures | undefined => {
    const id = Number(k);
    if (staff !== "all" && id !== staff) return undefined;
    if (!byUser.has(id)) byUser.set(id, empty());
    return byUser.get(id);
  };

  if (mine.length > 0) {
    const dirs = sql.join(mine.map((d) => sql`${d}`), sql`, `);
    const from = window.from.getTime();
    const to = window.to.getTime();
    const settled = promiseCutoffMs(now, OVERDUE_AFTER_DAYS);
    const uploaded = sql`upload_date >= ${from} AND upload_date < ${to}`;
    const scoped = sql`${uploaded} AND direction IN (${dirs})`;
    // An administrator's scope is every direction: the direction filter is left out where no pair of
    // the period has another (a direction code no longer known), which halves the people's walks.
    const everyDirection = mine.length === DIRECTIONS.length;
    // The counts: one pass over the period's pairs grouped by direction and the two people, summed
    // here per direction and per person (a few hundred groups at most).
    const groups = await db.all<Group>(sql`
      SELECT direction, listen_by, decide_by, count(*) AS n, count(listen_ms) AS heard,
        count(decide_ms) AS decided, coalesce(sum(decide_ms <= ${PROMISE_MS}), 0) AS kept,
        coalesce(sum(decide_ms IS NOT NULL OR upload_date < ${settled}), 0) AS due
      FROM track_pair_facts INDEXED BY track_pair_facts_groups_idx WHERE ${everyDirection ? uploaded : scoped}
      GROUP BY direction, listen_by, decide_by`);
    let received = 0;
    let stray = false;
    for (const g of groups) {
      const d = byDirection.get(g.direction as Direction);
      if (!d) {
        stray = true;
        continue;
      }
      received += Number(g.n);
      d.received += Number(g.n);
      d.heard += Number(g.heard);
      d.decided += Number(g.decided);
      d.within_promise.kept += Number(g.kept);
      d.within_promise.due += Number(g.due);
      const listener = g.listen_by === null ? undefined : personOf(g.listen_by);
      if (listener) listener.heard += Number(g.heard);
      const decider = g.decide_by === null ? undefined : personOf(g.decide_by);
      if (decider) {
        decider.decided += Number(g.decided);
        decider.within_promise.kept += Number(g.kept);
        decider.within_promise.due += Number(g.decided);
      }
    }

    // The percentiles: nearest rank, the value at rank ⌈p·n⌉ of a group's n sorted times. A short
    // period sorts its pairs of the group; a long one (a tenth of all pairs or more) walks the
    // group's (…, time) index from the nearer end instead: ⌈n/2⌉ from below, ⌈9n/10⌉ from above.
    const all = Number((await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM track_pair_facts`))[0]?.n ?? 0);
    const long = percentiles ? percentiles === "walk" : received * 10 >= all;
    const walks: ReturnType<typeof sql>[] = [];
    const targets: Percentiles[] = [];
    const period = everyDirection && !stray ? uploaded : scoped;
    const walk = (target: Percentiles, key: ReturnType<typeof sql>, index: string, time: string, n: number) => {
      if (n <= 0) return;
      const median = Math.floor((n + 1) / 2);
      const p90 = Math.floor((9 * n + 9) / 10);
      const one = (order: string, offset: number) =>
        sql`(SELECT ${sql.raw(time)} FROM track_pair_facts INDEXED BY ${sql.raw(index)}
          WHERE ${key} AND ${sql.raw(time)} IS NOT NULL AND ${period}
          ORDER BY ${sql.raw(time)} ${sql.raw(order)} LIMIT 1 OFFSET ${offset})`;
      walks.push(sql`SELECT ${targets.length} AS i, ${one("ASC", median - 1)} AS m, ${one("DESC", n - p90)} AS p`);
      targets.push(target);
    };
    const index = (short: string, walked: string) => `track_pair_facts_${long ? walked : short}_idx`;
    for (const [d, f] of byDirection) {
      const key = sql`direction = ${d}`;
      walk(f.to_listen, key, index("direction_upload", "direction_listen"), "listen_ms", f.heard);
      walk(f.to_decision, key, index("direction_upload", "direction_decide"), "decide_ms", f.decided);
    }
    for (const [id, f] of byUser) {
      walk(f.to_listen, sql`listen_by = ${id}`, index("listen_by_upload", "listen_by"), "listen_ms", f.heard);
      walk(f.to_decision, sql`decide_by = ${id}`, index("decide_by_upload", "decide_by"), "decide_ms", f.decided);
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
