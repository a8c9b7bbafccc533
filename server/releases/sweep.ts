import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { releases } from "../../db/schema.ts";
import { REMINDER_EVERY_DAYS, REMINDERS_MAX } from "../../domain/releases.ts";
import { labelDay } from "../../domain/release-desk.ts";
import type { AppDeps } from "../deps.ts";
import { createSweepRunner } from "../leases/sweep-runner.ts";
import { DAY_MS } from "../../domain/response-promise.ts";
import { readRules } from "../intake/rules.ts";
import type { TelegramOutbox } from "../notifications/outbox.ts";
import { historyStatement } from "./pair-effects.ts";
import { releasedText, releaseMessageKey, releaseUrl, reminderText, requestText } from "./messages.ts";
import { askedFiles, materialItems, type ReleaseRow, releaseRows, titleOf } from "./views.ts";
import { materialsByRelease } from "./materials/reads.ts";

/**
 * The release desk's sweep (issue 34, docs/decisions/0352), every INTAKE_SWEEP_INTERVAL_S under its
 * own job lease by the one sweep runner (server/leases/sweep-runner.ts: one instance at a time, like
 * the promise sweep):
 * - a new release's request to the artist once its decision's hold is over (an undo within the
 *   hold removed the release, so nothing is sent);
 * - reminders while materials are missing: the n-th no sooner than REMINDER_EVERY_DAYS after the
 *   request or the previous one, at most REMINDERS_MAX, none once complete or cancelled;
 * - scheduled releases whose day has come (Moscow) move to released, the artist told that day.
 */
export interface ReleaseSweep {
  /** One pass now (when this instance holds or takes the lease): the messages written. */
  runOnce(): Promise<number>;
  /** A pass soon after `ms` (a new release's hold ending), on top of the interval's. */
  soon(ms: number): void;
  start(): void;
  stop(): Promise<void>;
}

const LEASE_NAME = "release-sweep";
const BATCH = 200;

export interface SweepDeps extends Pick<AppDeps, "db" | "clock" | "logger" | "config"> {
  outbox: Pick<TelegramOutbox, "artistTextStatements">;
  kick: () => void;
}

function told(deps: SweepDeps, row: ReleaseRow, key: string, text: string): BatchItem<"sqlite">[] {
  if (row.user_id === null) return [];
  return [...deps.outbox.artistTextStatements({ key, userId: row.user_id, text })];
}

async function requests(deps: SweepDeps, now: Date, holdMs: number): Promise<number> {
  const { db } = deps;
  const rows = await releaseRows(
    db,
    and(
      eq(releases.stage, "materials_requested"),
      isNull(releases.request_told_at),
      lte(releases.accepted_at, new Date(now.getTime() - holdMs)),
    ),
  ).limit(BATCH);
  if (rows.length === 0) return 0;
  const rules = await readRules(db);
  const files = await materialsByRelease(db, rows.map((r) => r.r.id));
  for (const row of rows) {
    const items = materialItems(row.r, files.get(row.r.id) ?? [], askedFiles(rules, row.r.direction), false);
    const text = requestText({
      title: titleOf(row),
      direction: row.r.direction,
      needed: items.filter((i) => i.required && i.state !== "accepted"),
      url: releaseUrl(deps.config.publicUrl, row.r.id),
    });
    await db.batch([
      db.update(releases).set({ request_told_at: now }).where(eq(releases.id, row.r.id)),
      ...told(deps, row, releaseMessageKey.request(row.r.id), text),
    ]);
  }
  return rows.length;
}

async function reminders(deps: SweepDeps, now: Date): Promise<number> {
  const { db } = deps;
  const due = new Date(now.getTime() - REMINDER_EVERY_DAYS * DAY_MS);
  const rows = await releaseRows(
    db,
    and(
      eq(releases.stage, "materials_requested"),
      sql`${releases.reminders_sent} < ${REMINDERS_MAX}`,
      lte(releases.request_told_at, due),
      or(isNull(releases.reminded_at), lte(releases.reminded_at, due)),
    ),
  ).limit(BATCH);
  if (rows.length === 0) return 0;
  const rules = await readRules(db);
  const files = await materialsByRelease(db, rows.map((r) => r.r.id));
  let sent = 0;
  for (const row of rows) {
    const items = materialItems(row.r, files.get(row.r.id) ?? [], askedFiles(rules, row.r.direction), false);
    const missing = items.filter((i) => i.required && i.state !== "accepted");
    if (missing.length === 0) continue;
    const n = row.r.reminders_sent + 1;
    const text = reminderText({
      title: titleOf(row),
      missing,
      url: releaseUrl(deps.config.publicUrl, row.r.id),
    });
    // Counted on the row's own count, so a pass that meets another's write adds nothing twice.
    await db.batch([
      db.update(releases).set({ reminders_sent: n, reminded_at: now })
        .where(and(eq(releases.id, row.r.id), eq(releases.reminders_sent, n - 1))),
      ...told(deps, row, releaseMessageKey.reminder(row.r.id, n), text),
    ]);
    sent++;
  }
  return sent;
}

async function releaseDays(deps: SweepDeps, now: Date): Promise<number> {
  const { db } = deps;
  const today = labelDay(now);
  const rows = await releaseRows(db, and(eq(releases.stage, "scheduled"), lte(releases.release_date, today)))
    .limit(BATCH);
  for (const row of rows) {
    const r = row.r;
    await db.batch([
      db.update(releases).set({ stage: "released", released_at: now, revision: r.revision + 1, updated_at: now })
        .where(and(eq(releases.id, r.id), eq(releases.revision, r.revision))),
      historyStatement(db, {
        releaseId: r.id,
        by: null,
        action: "released",
        before: { stage: "scheduled" },
        after: { stage: "released" },
        at: now,
      }),
      ...told(
        deps,
        row,
        releaseMessageKey.released(r.id),
        releasedText({
          title: titleOf(row),
          direction: r.direction,
          catalogue: r.catalogue_number,
          url: releaseUrl(deps.config.publicUrl, r.id),
        }),
      ),
    ]);
  }
  return rows.length;
}

export function createReleaseSweep(deps: SweepDeps, opts: { owner?: string } = {}): ReleaseSweep {
  const holdMs = (deps.config.decisionNotifyHoldS ?? 0) * 1000;
  return createSweepRunner(deps, {
    name: LEASE_NAME,
    everyMs: deps.config.intakeSweepIntervalS * 1000,
    owner: opts.owner,
    label: "release sweep",
    async pass({ now }) {
      const written = (await requests(deps, now, holdMs)) + (await reminders(deps, now)) +
        (await releaseDays(deps, now));
      if (written > 0) deps.kick();
      return written;
    },
  });
}
