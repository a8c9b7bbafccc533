import { type Direction, DIRECTION_LABELS, parseDirections } from "../../domain/directions.ts";
import { CAP_WINDOW_DAYS, INTAKE_TEXTS } from "../../domain/intake-rules.ts";
import { tempoInWindow } from "../../domain/tempo.ts";
import { recentSubmissions } from "../tracks/intake-sql.ts";
import type { Verdict } from "../processing/analyse-track.ts";
import type { Db } from "../../db/client.ts";
import { ApiError } from "../lib/http-error.ts";
import { type IntakeRules, readRules } from "./rules.ts";
import { DAY_MS } from "../../domain/response-promise.ts";

/**
 * The intake rules at the door (issue 25, docs/decisions/0238): a paused direction (409 with its
 * message), the cap per artist per 30 days and the cooldown between an artist's submissions to a
 * direction (429 with when it opens again). One check for every way a track comes in: POST
 * /api/upload (before any byte is stored) and the resumable upload's start and merge (issue 26).
 *
 * Counted: the artist's tracks naming the direction, uploaded within the window, except failed
 * uploads (never submitted: a duplicate or a broken file does not use up the artist's turn).
 */
export interface IntakeCheck {
  userId: number;
  directions: readonly Direction[];
  now: Date;
  /** Files of this submission (each counts towards the cap); 1 when left out. */
  files?: number;
}

const HOUR_MS = 3_600_000;

/** A date as the artist reads it (the label works on Moscow time). */
export function formatOpensAt(at: Date): string {
  return new Intl.DateTimeFormat("ru-RU", {
    timeZone: "Europe/Moscow",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
  }).format(at) + " (МСК)";
}

function refusal(status: 409 | 429, message: string, direction: Direction, reason: string, now: Date, opensAt?: Date) {
  return new ApiError(status, message, {
    direction,
    reason,
    ...(opensAt
      ? {
        opens_at: opensAt.toISOString(),
        retry_after_s: Math.max(1, Math.ceil((opensAt.getTime() - now.getTime()) / 1000)),
      }
      : {}),
  });
}

/**
 * The verdicts of one artist at `now`, read once (the rules, and the artist's recent tracks only when
 * some direction has a cap or a cooldown), then asked synchronously as a body's parts arrive.
 */
export async function intakeGate(db: Db, { userId, now }: { userId: number; now: Date }) {
  const rules = await readRules(db);
  const windowMs = Math.max(
    0,
    ...Object.values(rules).map((r) =>
      Math.max(r.cap_per_30_days !== null ? CAP_WINDOW_DAYS * DAY_MS : 0, (r.cooldown_hours ?? 0) * HOUR_MS)
    ),
  );
  const recent = windowMs === 0 ? [] : await recentSubmissions(db, userId, new Date(now.getTime() - windowMs));
  return {
    rules,
    check: (directions: readonly Direction[], files = 1, opts: VerdictOptions = {}) =>
      verdict(rules, recent, directions, files, now, opts),
  };
}

/** Issue 37: a new version passes the cooldown once per original (the cap still counts). */
export interface VerdictOptions {
  skipCooldown?: boolean;
}

function verdict(
  rules: IntakeRules,
  recent: readonly { directions: string; at: Date }[],
  directions: readonly Direction[],
  files: number,
  now: Date,
  opts: VerdictOptions = {},
): void {
  for (const d of directions) {
    const rule = rules[d];
    const label = DIRECTION_LABELS[d];
    if (!rule.open) throw refusal(409, INTAKE_TEXTS.paused(label, rule.pause_message), d, "paused", now);
    const mine = recent.filter((t) => parseDirections(t.directions).includes(d)).map((t) => t.at.getTime())
      .sort((a, b) => a - b);
    if (rule.cooldown_hours !== null && mine.length > 0 && !opts.skipCooldown) {
      const opens = mine[mine.length - 1] + rule.cooldown_hours * HOUR_MS;
      if (opens > now.getTime()) {
        const at = new Date(opens);
        throw refusal(
          429,
          INTAKE_TEXTS.cooldown(label, rule.cooldown_hours, formatOpensAt(at)),
          d,
          "cooldown",
          now,
          at,
        );
      }
    }
    if (rule.cap_per_30_days !== null) {
      const since = now.getTime() - CAP_WINDOW_DAYS * DAY_MS;
      const inWindow = mine.filter((at) => at > since);
      const leaving = inWindow.length + files - rule.cap_per_30_days;
      if (leaving > 0) {
        // The moment enough of the counted tracks have left the window for these files to fit; more
        // files than the cap itself never fit, and then the last counted one's leaving is given.
        const oldest = inWindow[Math.min(leaving, inWindow.length) - 1];
        const at = new Date((oldest ?? now.getTime()) + CAP_WINDOW_DAYS * DAY_MS);
        throw refusal(429, INTAKE_TEXTS.cap(label, rule.cap_per_30_days, formatOpensAt(at)), d, "cap", now, at);
      }
    }
  }
}

/**
 * The one check of the intake rules (paused, cap, cooldown) for an artist's submission of `files`
 * files to `directions`: throws the refusal (409 or 429, Russian `error`, with `direction`, `reason`
 * and, for the cap and the cooldown, `opens_at` and `retry_after_s`), else returns.
 */
export async function checkIntake(db: Db, input: IntakeCheck): Promise<void> {
  const gate = await intakeGate(db, input);
  gate.check(input.directions, input.files ?? 1);
}

/**
 * The tempo window (issue 25): of a track's directions, those whose window the measured tempo misses
 * (half-time folded), split by what their rule says. No tempo measured: nothing is judged.
 */
export function tempoVerdict(rules: IntakeRules, directions: readonly Direction[], bpm: number | null) {
  const outside = bpm === null
    ? []
    : directions.filter((d) => !tempoInWindow(bpm, rules[d].tempo_min, rules[d].tempo_max));
  return {
    flagged: outside.filter((d) => rules[d].tempo_mode === "flag"),
    refused: outside.filter((d) => rules[d].tempo_mode === "refuse"),
  };
}

/** The refusal's text for the artist, naming each refusing direction and its window. */
export function tempoRefusalText(
  rules: IntakeRules,
  refused: readonly Direction[],
  bpm: number,
  directions: readonly Direction[],
): string {
  return INTAKE_TEXTS.tempoRefused(
    bpm,
    refused.map((d) => ({ label: DIRECTION_LABELS[d], min: rules[d].tempo_min, max: rules[d].tempo_max })),
    directions.some((d) => !refused.includes(d)),
  );
}

/**
 * Processing's verdict with the tempo window applied (issue 25, docs/decisions/0240): a direction
 * that refuses the measured tempo fails the whole track with the reason (its file is not kept); a
 * direction that flags it adds the staff-only warning `tempo_outside_window`.
 */
export async function applyTempoWindow(db: Db, directions: readonly Direction[], verdict: Verdict): Promise<Verdict> {
  if (verdict.status !== "completed" || verdict.analysis.bpm === null) return verdict;
  const bpm = verdict.analysis.bpm;
  const rules = await readRules(db);
  const { flagged, refused } = tempoVerdict(rules, directions, bpm);
  if (refused.length > 0) {
    return {
      status: "failed",
      error: tempoRefusalText(rules, refused, bpm, directions),
      discard: true,
      size: verdict.facts.size,
      checksum: verdict.facts.checksum,
    };
  }
  const warnings = verdict.analysis.warnings;
  if (flagged.length === 0 || warnings.includes("tempo_outside_window")) return verdict;
  return { ...verdict, analysis: { ...verdict.analysis, warnings: [...warnings, "tempo_outside_window"] } };
}

/**
 * A report analysed again (ANALYSIS_VERSION, decision 0217) keeps the tempo window's flag: the track
 * is already in, so a direction whose window the new tempo misses flags it whatever its mode says
 * (a refusal is for uploads, not for tracks staff may already have decided).
 */
export async function flagTempoWindow<A extends { bpm: number | null; warnings: readonly string[] }>(
  db: Db,
  directions: readonly Direction[],
  analysis: A,
): Promise<A> {
  const warnings = analysis.warnings.filter((w) => w !== "tempo_outside_window");
  if (analysis.bpm === null) return { ...analysis, warnings };
  const { flagged, refused } = tempoVerdict(await readRules(db), directions, analysis.bpm);
  return {
    ...analysis,
    warnings: flagged.length + refused.length > 0 ? [...warnings, "tempo_outside_window"] : warnings,
  };
}
