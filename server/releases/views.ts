import { and, asc, desc, eq, gte, inArray, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { releaseHistory, releases, trackAnalysis, tracks, users } from "../../db/schema.ts";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import {
  catalogueNumber,
  catalogueNumberOf,
  DEFAULT_CATALOGUE_PREFIX,
  isLabelDirection,
  LABEL_NAMES,
  type ReleaseStage,
} from "../../domain/releases.ts";
import { type LabelCopy, labelCopyComplete } from "../../domain/release-schemas.ts";
import { trackNameParts } from "../../domain/track-name.ts";
import type { IntakeRules } from "../intake/rules.ts";
import { materialsByRelease, type MaterialState } from "./materials/reads.ts";

/**
 * A release's rows as the staff and the artist read them (issue 34): the release with its track's
 * name, owner and demo figures, the materials list (files from materials/reads.ts, then the label
 * copy and the sample clearance), and the label's suggested next catalogue number.
 */

export const RELEASE_COLUMNS = {
  r: releases,
  filename: tracks.filename,
  user_id: tracks.user_id,
  track_directions: tracks.directions,
  username: users.username,
  duration_s: trackAnalysis.duration_s,
  bpm: trackAnalysis.bpm,
  musical_key: trackAnalysis.musical_key,
};

export type ReleaseRow = {
  r: typeof releases.$inferSelect;
  filename: string;
  user_id: number | null;
  track_directions: string | null;
  username: string | null;
  duration_s: number | null;
  bpm: number | null;
  musical_key: string | null;
};

/** SQL: the release's track belongs to this user. */
export function ownedBy(userId: number): SQL {
  return eq(tracks.user_id, userId);
}

/** The releases with their track (the base query every read narrows). */
export function releaseRows(db: Db, where: SQL | undefined) {
  return db.select(RELEASE_COLUMNS).from(releases)
    .innerJoin(tracks, eq(tracks.id, releases.track_id))
    .leftJoin(users, eq(users.id, tracks.user_id))
    .leftJoin(trackAnalysis, eq(trackAnalysis.track_id, releases.track_id))
    .where(where);
}

export async function releaseRowById(db: Db, id: number): Promise<ReleaseRow | undefined> {
  const [row] = await releaseRows(db, eq(releases.id, id)).limit(1);
  return row;
}

/** What the list and the exports filter on (the release day for `from`/`to`). */
export interface ReleaseFilter {
  directions: readonly Direction[];
  stage?: ReleaseStage;
  from?: string;
  to?: string;
  /** Leave out cancelled releases (exports, the calendar). */
  live?: boolean;
  /** Only scheduled and released (the calendar). */
  dated?: boolean;
}

export function filterSql(f: ReleaseFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [
    f.directions.length ? inArray(releases.direction, [...f.directions]) : sql`0`,
    f.stage ? eq(releases.stage, f.stage) : undefined,
    f.from ? gte(releases.release_date, f.from) : undefined,
    f.to ? lte(releases.release_date, f.to) : undefined,
    f.live ? sql`${releases.stage} <> 'cancelled'` : undefined,
    f.dated ? and(inArray(releases.stage, ["scheduled", "released"]), isNotNull(releases.release_date)) : undefined,
  ];
  return and(...parts.filter((p): p is SQL => p !== undefined));
}

export function listOrder(oldestFirst: boolean) {
  return oldestFirst ? [asc(releases.accepted_at), asc(releases.id)] : [desc(releases.accepted_at), desc(releases.id)];
}

/** One item of the release's checklist. */
export interface MaterialItem {
  kind: "master" | "extended" | "instrumental" | "label_copy" | "sample_clearance";
  required: boolean;
  state: "missing" | "checking" | "accepted" | "refused";
  /** Russian, for the artist: why refused, or what is missing. */
  reason: string | null;
  filename: string | null;
  size: number | null;
  updated_at: string | null;
  /** The file check's figures (staff only). */
  report?: unknown;
}

/** The files the label asks for: the master always, the extras its intake settings name. */
export function askedFiles(rules: IntakeRules, direction: string): ("master" | "extended" | "instrumental")[] {
  if (!isLabelDirection(direction)) return ["master"];
  const rule = rules[direction];
  return [
    "master",
    ...(rule.release_extended ? ["extended" as const] : []),
    ...(rule.release_instrumental ? ["instrumental" as const] : []),
  ];
}

/** The checklist: files (asked ones required, others shown when sent), label copy, sample clearance. */
export function materialItems(
  row: ReleaseRow["r"],
  files: readonly MaterialState[],
  asked: readonly string[],
  staff: boolean,
): MaterialItem[] {
  const byKind = new Map(files.map((f) => [f.kind, f]));
  const kinds = (["master", "extended", "instrumental"] as const).filter((k) => asked.includes(k) || byKind.has(k));
  const items: MaterialItem[] = kinds.map((kind) => {
    const f = byKind.get(kind);
    return {
      kind,
      required: asked.includes(kind),
      state: f ? f.state : "missing",
      reason: f?.reason ?? null,
      filename: f?.filename ?? null,
      size: f?.size ?? null,
      updated_at: f ? new Date(f.updated_at).toISOString() : null,
      ...(staff ? { report: f?.report ?? null } : {}),
    };
  });
  const copy = row.label_copy as LabelCopy | null;
  const blank = { filename: null, size: null, updated_at: copy ? row.updated_at.toISOString() : null };
  items.push({ kind: "label_copy", required: true, state: copy ? "accepted" : "missing", reason: null, ...blank });
  items.push({
    kind: "sample_clearance",
    required: true,
    state: !copy ? "missing" : labelCopyComplete(copy) ? "accepted" : "refused",
    reason: copy && !labelCopyComplete(copy)
      ? "Сэмплы использованы, но не разрешены: релиз выйдет только с разрешением правообладателя"
      : null,
    ...blank,
  });
  return items;
}

/** Everything required is in: what moves the release to materials_received. */
export function materialsComplete(items: readonly MaterialItem[]): boolean {
  return items.every((i) => !i.required || i.state === "accepted");
}

/** The label's prefix now (its intake setting, else the built-in one). */
export function prefixOf(rules: IntakeRules, direction: string): string {
  if (!isLabelDirection(direction)) return "REL";
  return rules[direction].catalogue_prefix ?? DEFAULT_CATALOGUE_PREFIX[direction];
}

/**
 * The label's next catalogue number: the intake setting's `catalogue_next`, or past the highest
 * number of this prefix already given, whichever is higher (docs/decisions/0351).
 */
export async function suggestedNumbers(db: Db, rules: IntakeRules, directions: readonly string[]) {
  const out = new Map<string, string>();
  for (const d of new Set(directions)) {
    if (!isLabelDirection(d)) continue;
    const prefix = prefixOf(rules, d);
    const given = await db.select({ n: releases.catalogue_number }).from(releases)
      .where(and(eq(releases.direction, d), isNotNull(releases.catalogue_number)));
    const highest = Math.max(0, ...given.map((g) => catalogueNumberOf(prefix, g.n ?? "") ?? 0));
    out.set(d, catalogueNumber(prefix, Math.max(rules[d].catalogue_next, highest + 1)));
  }
  return out;
}

/** The track's artist and title from its file name (the label copy's defaults). */
export function demoParts(filename: string) {
  const { artist, title } = trackNameParts(filename);
  return { artist, title };
}

/** The release's title: staff's or the label copy's, else the demo's. */
export function titleOf(row: Pick<ReleaseRow, "r" | "filename">): string {
  return row.r.title ?? demoParts(row.filename).title;
}

/** Names of the release's artists: the label copy's, else the demo's. */
export function artistsOf(row: ReleaseRow): string[] {
  const copy = row.r.label_copy as LabelCopy | null;
  if (copy?.artists.length) return copy.artists;
  const { artist } = demoParts(row.filename);
  return artist ? [artist] : [];
}

function common(row: ReleaseRow, items: MaterialItem[]) {
  const r = row.r;
  const demo = demoParts(row.filename);
  return {
    id: r.id,
    track_id: r.track_id,
    direction: r.direction as Direction,
    label: isLabelDirection(r.direction) ? LABEL_NAMES[r.direction] : r.direction,
    stage: r.stage as ReleaseStage,
    revision: r.revision,
    title: r.title ?? demo.title,
    version: r.version,
    artists: artistsOf(row),
    catalogue_number: r.catalogue_number,
    release_date: r.release_date,
    track_filename: row.filename,
    label_copy: (r.label_copy as LabelCopy | null) ?? null,
    isrc: r.isrc,
    materials: items,
    materials_complete: materialsComplete(items),
    accepted_at: r.accepted_at.toISOString(),
    materials_complete_at: r.materials_complete_at?.toISOString() ?? null,
    released_at: r.released_at?.toISOString() ?? null,
    updated_at: r.updated_at.toISOString(),
  };
}

export type ArtistRelease = ReturnType<typeof common>;

export interface StaffRelease extends ArtistRelease {
  note: string | null;
  artist_username: string | null;
  user_id: number | null;
  suggested_catalogue_number: string | null;
  /** Whole days since the accept (how long it has waited, for the waiting list). */
  waiting_days: number;
  duration_s: number | null;
  bpm: number | null;
  musical_key: string | null;
  reminders_sent: number;
}

/** The rows as release objects (staff: note, figures, reports, the suggested number). */
export async function releaseViews(
  db: Db,
  rows: readonly ReleaseRow[],
  rules: IntakeRules,
  now: Date,
  staff: true,
): Promise<StaffRelease[]>;
export async function releaseViews(
  db: Db,
  rows: readonly ReleaseRow[],
  rules: IntakeRules,
  now: Date,
  staff: false,
): Promise<ArtistRelease[]>;
export async function releaseViews(
  db: Db,
  rows: readonly ReleaseRow[],
  rules: IntakeRules,
  now: Date,
  staff: boolean,
): Promise<(ArtistRelease | StaffRelease)[]> {
  const files = await materialsByRelease(db, rows.map((r) => r.r.id));
  const suggested = staff
    ? await suggestedNumbers(db, rules, rows.filter((r) => !r.r.catalogue_number).map((r) => r.r.direction))
    : new Map<string, string>();
  return rows.map((row) => {
    const items = materialItems(row.r, files.get(row.r.id) ?? [], askedFiles(rules, row.r.direction), staff);
    const base = common(row, items);
    if (!staff) return base;
    return {
      ...base,
      note: row.r.note,
      artist_username: row.username,
      user_id: row.user_id,
      suggested_catalogue_number: row.r.catalogue_number ? null : suggested.get(row.r.direction) ?? null,
      waiting_days: Math.max(0, Math.floor((now.getTime() - row.r.accepted_at.getTime()) / 86_400_000)),
      duration_s: row.duration_s,
      bpm: row.bpm,
      musical_key: row.musical_key,
      reminders_sent: row.r.reminders_sent,
    };
  });
}

/** The track's directions (for the sight rule). */
export function trackDirections(row: ReleaseRow): Direction[] {
  return parseDirections(row.track_directions);
}

/** One release's history, oldest first, with who made each change. */
export async function historyOf(db: Db, releaseId: number) {
  const rows = await db.select({ h: releaseHistory, username: users.username }).from(releaseHistory)
    .leftJoin(users, eq(users.id, releaseHistory.user_id))
    .where(eq(releaseHistory.release_id, releaseId))
    .orderBy(asc(releaseHistory.id));
  return rows.map(({ h, username }) => ({
    id: h.id,
    action: h.action,
    by: username,
    before: h.before,
    after: h.after,
    at: h.created_at.toISOString(),
  }));
}
