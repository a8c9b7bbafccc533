import { and, asc, eq, inArray, max, or } from "drizzle-orm";
import { tracks, trackVersions, uploadVersions, versionOffers } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { type Direction, DIRECTION_LABELS, parseDirections } from "../../domain/directions.ts";
import { INTAKE_TEXTS } from "../../domain/intake-rules.ts";
import { artistReviewStatus, isReviewStatus } from "../../domain/review.ts";
import { ApiError, badRequest, conflict, notFound } from "../lib/http-error.ts";
import { readRules } from "../intake/rules.ts";
import type { VerdictOptions } from "../intake/check.ts";
import { assignVersion } from "../review/version-assignee.ts";

/**
 * A new version of an artist's earlier track (issue 37, docs/decisions/0400–0402): both upload
 * paths take `version_of` (POST /api/upload as `?version_of=`, the resumable start in its JSON).
 * The track must be the caller's own (400 otherwise, whoever's it is, so ids are not probed); the
 * new version goes to the directions of that track still open for intake, or to those of them the
 * form names (naming another is 400); it passes a direction's cooldown once per original (the first
 * version the cooldown would have held), the 30-day cap still counting; and it is assigned to whoever
 * decided the version it replaces, while they cover the direction.
 */

export const VERSION_TEXTS = {
  badId: "Некорректное значение version_of: укажите номер своего трека.",
  notOwn: "Новую версию можно отправить только для своего трека (version_of).",
  failed: "Этот трек не был принят к рассмотрению: отправьте его как новый трек, а не как версию.",
  oneFile: "Новая версия — это один файл.",
  otherDirection: (label: string) =>
    `Новая версия идёт только в направления прежнего трека, открытые для приёма: «${label}» не из них.`,
} as const;

export interface VersionPlan {
  /** The track it is a new version of. */
  versionOf: number;
  /** The first track of the line. */
  originalId: number;
  /** This version's number (the original is 1). */
  number: number;
  /** The directions of `versionOf` still open for intake. */
  open: Direction[];
  /** No version of this original has used the cooldown's pass yet. */
  passAvailable: boolean;
}

/** `version_of` as a query string or JSON gives it: a positive whole number, else 400. */
export function parseVersionOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest(VERSION_TEXTS.badId);
  return n;
}

/** What a new version of `versionOf` by `userId` may be: 400 for another's (or no) track. */
export async function planVersion(db: Db, userId: number, versionOf: number): Promise<VersionPlan> {
  const [track] = await db.select({ user_id: tracks.user_id, directions: tracks.directions, status: tracks.status })
    .from(tracks).where(eq(tracks.id, versionOf)).limit(1);
  if (!track || track.user_id !== userId) throw badRequest(VERSION_TEXTS.notOwn);
  if (track.status === "failed") throw badRequest(VERSION_TEXTS.failed);
  const rules = await readRules(db);
  const all = parseDirections(track.directions);
  const open = all.filter((d) => rules[d].open);
  if (open.length === 0 && all.length > 0) {
    const d = all[0];
    throw new ApiError(409, INTAKE_TEXTS.paused(DIRECTION_LABELS[d], rules[d].pause_message), {
      direction: d,
      reason: "paused",
    });
  }
  const [link] = await db.select({ original_id: trackVersions.original_id }).from(trackVersions)
    .where(eq(trackVersions.track_id, versionOf)).limit(1);
  const originalId = link?.original_id ?? versionOf;
  const line = await db.select({ number: max(trackVersions.number) }).from(trackVersions)
    .where(eq(trackVersions.original_id, originalId));
  const [passed] = await db.select({ id: trackVersions.track_id }).from(trackVersions)
    .where(and(eq(trackVersions.original_id, originalId), eq(trackVersions.cooldown_passed, true))).limit(1);
  const [pending] = await db.select({ id: uploadVersions.upload_id }).from(uploadVersions)
    .innerJoin(trackVersions, eq(trackVersions.track_id, uploadVersions.version_of))
    .where(and(eq(trackVersions.original_id, originalId), eq(uploadVersions.cooldown_passed, true))).limit(1);
  return {
    versionOf,
    originalId,
    number: Math.max(1, Number(line[0]?.number ?? 1)) + 1,
    open,
    passAvailable: !passed && !pending,
  };
}

/** The directions a version goes to: those named (each among `open`, else 400), or all of `open`. */
export function versionDirections(plan: VersionPlan, named: readonly Direction[]): Direction[] {
  for (const d of named) {
    if (!plan.open.includes(d)) throw badRequest(VERSION_TEXTS.otherDirection(DIRECTION_LABELS[d]));
  }
  return named.length > 0 ? [...named] : [...plan.open];
}

type Check = (directions: readonly Direction[], files: number, opts?: VerdictOptions) => void;

/**
 * The intake check of a version: as any upload's, except that a cooldown refusal is let past once
 * per original. True when the pass was used (the version then records it).
 */
export function checkVersion(check: Check | undefined, plan: VersionPlan, directions: Direction[], files: number) {
  if (files > 1) throw badRequest(VERSION_TEXTS.oneFile);
  if (!check) return false;
  try {
    check(directions, files);
    return false;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 429 || err.extra?.reason !== "cooldown" || !plan.passAvailable) {
      throw err;
    }
    check(directions, files, { skipCooldown: true });
    return true;
  }
}

/** The new track linked as the version, and assigned to whoever decided the one it replaces. */
export async function linkVersion(
  db: Db,
  input: { trackId: number; plan: VersionPlan; cooldownPassed: boolean; directions: readonly Direction[]; at: Date },
): Promise<void> {
  const { plan } = input;
  await db.insert(trackVersions).values({
    track_id: input.trackId,
    version_of: plan.versionOf,
    original_id: plan.originalId,
    number: plan.number,
    cooldown_passed: input.cooldownPassed,
  }).onConflictDoNothing();
  await assignVersion(db, {
    trackId: input.trackId,
    previousId: plan.versionOf,
    directions: input.directions,
    at: input.at,
  });
}

/** A resumable upload started as a version: kept until it completes. */
export async function rememberUploadVersion(db: Db, uploadId: string, plan: VersionPlan, cooldownPassed: boolean) {
  await db.insert(uploadVersions).values({
    upload_id: uploadId,
    version_of: plan.versionOf,
    cooldown_passed: cooldownPassed,
  })
    .onConflictDoNothing();
}

/**
 * The completed resumable upload's version link, if it was started as one: linked now, and assigned
 * to whoever decided the version it replaces.
 */
export async function completeUploadVersion(
  db: Db,
  upload: { id: string; user_id: number; directions: string },
  trackId: number,
  at: Date,
): Promise<void> {
  const [row] = await db.select().from(uploadVersions).where(eq(uploadVersions.upload_id, upload.id)).limit(1);
  if (!row) return;
  const plan = await planVersion(db, upload.user_id, row.version_of).catch(() => null);
  if (!plan) return;
  const directions = parseDirections(upload.directions);
  await linkVersion(db, { trackId, plan, cooldownPassed: row.cooldown_passed, directions, at });
}

/** One version of a line, as the track objects carry it. */
export interface VersionView {
  id: number;
  number: number;
  /** ISO 8601. */
  upload_date: string;
  status: string;
  /** Per direction, the pair's state (staff: their states; the artist: what they see). */
  outcomes: Array<{ direction: Direction; status: string }>;
}

/**
 * The versions of the lines `ids` belong to, by track id: every version of the line (the original
 * first), for tracks that are in a line of two or more; the artist's view shows their states.
 */
export async function versionsOf(
  db: Db,
  ids: readonly number[],
  forArtist: boolean,
): Promise<Map<number, { version_of: number | null; number: number; versions: VersionView[] }>> {
  const out = new Map<number, { version_of: number | null; number: number; versions: VersionView[] }>();
  if (ids.length === 0) return out;
  const links = await db.select().from(trackVersions)
    .where(or(inArray(trackVersions.track_id, [...ids]), inArray(trackVersions.original_id, [...ids])));
  if (links.length === 0) return out;
  const roots = [...new Set(links.map((l) => l.original_id))];
  const all = await db.select().from(trackVersions).where(inArray(trackVersions.original_id, roots))
    .orderBy(asc(trackVersions.number));
  const members = [...new Set([...roots, ...all.map((l) => l.track_id)])];
  const rows = await db.select({
    id: tracks.id,
    upload_date: tracks.upload_date,
    status: tracks.status,
    directions: tracks.directions,
    review: tracks.review,
  }).from(tracks).where(inArray(tracks.id, members));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const view = (id: number, number: number): VersionView | null => {
    const r = byId.get(id);
    if (!r) return null;
    const states = new Map(r.review.split(",").map((e) => e.split(":") as [string, string]));
    return {
      id,
      number,
      upload_date: r.upload_date.toISOString(),
      status: r.status,
      outcomes: r.status === "failed" ? [] : parseDirections(r.directions).map((direction) => {
        const s = states.get(direction) ?? "new";
        return { direction, status: forArtist && isReviewStatus(s) ? artistReviewStatus(s) : s };
      }),
    };
  };
  for (const root of roots) {
    const line = [
      view(root, 1),
      ...all.filter((l) => l.original_id === root).map((l) => view(l.track_id, l.number)),
    ].filter((v): v is VersionView => v !== null);
    for (const v of line) {
      if (!ids.includes(v.id)) continue;
      const link = all.find((l) => l.track_id === v.id);
      out.set(v.id, { version_of: link?.version_of ?? null, number: v.number, versions: line });
    }
  }
  return out;
}

export const OFFER_TEXTS = {
  trackNotFound: "Трек не найден",
  noOffer: "Этот трек не предлагался как новая версия того трека.",
  linked: "Трек уже связан с другой версией.",
} as const;

/** The offers of the artist's tracks `ids` not taken yet (issue 37): track id → the earlier track. */
export async function offersOf(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({
    id: versionOffers.track_id,
    to: versionOffers.similar_to,
    linked: trackVersions.track_id,
  })
    .from(versionOffers).leftJoin(trackVersions, eq(trackVersions.track_id, versionOffers.track_id))
    .where(inArray(versionOffers.track_id, [...ids]));
  return new Map(rows.filter((r) => r.linked === null).map((r) => [r.id, r.to]));
}

/**
 * POST /api/tracks/{id}/version-of (issue 37): the artist takes the offer, the upload becomes the
 * new version of the similar earlier track (its directions stay; the assignee follows the last
 * decider). 404 for another's track, 400 for a track never offered so, 409 once linked.
 */
export async function acceptOffer(db: Db, userId: number, trackId: number, versionOf: number, at: Date) {
  const [track] = await db.select({ user_id: tracks.user_id, directions: tracks.directions }).from(tracks)
    .where(eq(tracks.id, trackId)).limit(1);
  if (!track || track.user_id !== userId) throw notFound(OFFER_TEXTS.trackNotFound);
  const [linked] = await db.select({ id: trackVersions.track_id }).from(trackVersions)
    .where(eq(trackVersions.track_id, trackId)).limit(1);
  if (linked) throw conflict(OFFER_TEXTS.linked);
  if ((await offersOf(db, [trackId])).get(trackId) !== versionOf) throw badRequest(OFFER_TEXTS.noOffer);
  const plan = await planVersion(db, userId, versionOf);
  await linkVersion(db, { trackId, plan, cooldownPassed: false, directions: parseDirections(track.directions), at });
  return (await versionsOf(db, [trackId], true)).get(trackId)!;
}
