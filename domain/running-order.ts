/**
 * An episode's running order by tempo and key (issue 35): what each transition between two tracks
 * is (the tempo change in percent, the Camelot relation), and the suggested order. Shared by the
 * server (`suggest-order`) and the episode page (the hints between rows), so it imports only the
 * other domain rules. Docs: docs/decisions/0372-running-order-suggestion.md.
 */
import { foldToDnb } from "./tempo.ts";

/** The largest tempo step a mix takes without a stretch worth noticing: 4 %. */
export const MAX_TEMPO_STEP_PCT = 4;

/**
 * How two Camelot codes sit on the wheel: the same key, one step either way (`+1` clockwise, a
 * fifth up), the relative major/minor (same number, other letter), or a clash; `unknown` when
 * either key was not read.
 */
export type KeyRelation = "same" | "+1" | "-1" | "relative" | "clash" | "unknown";

/** What one needs of a track to place it: its id, tempo and Camelot code (either may be missing). */
export interface OrderTrack {
  id: number;
  bpm: number | null;
  camelot: string | null;
}

export interface Transition {
  /** The tempo change from one track to the next, in percent of the first's (folded into DnB's window); null without both. */
  tempo_pct: number | null;
  key: KeyRelation;
}

const CODE = /^(1[0-2]|[1-9])([AB])$/;

export function keyRelation(a: string | null | undefined, b: string | null | undefined): KeyRelation {
  const x = a ? CODE.exec(a) : null;
  const y = b ? CODE.exec(b) : null;
  if (!x || !y) return "unknown";
  const [na, la, nb, lb] = [Number(x[1]), x[2], Number(y[1]), y[2]];
  if (la === lb) {
    if (na === nb) return "same";
    if ((na % 12) + 1 === nb) return "+1";
    if ((nb % 12) + 1 === na) return "-1";
    return "clash";
  }
  return na === nb ? "relative" : "clash";
}

/** The tempo change from `a` to `b` in percent (signed, one decimal); null without both tempos. */
export function tempoChange(a: number | null, b: number | null): number | null {
  if (!a || !b || a <= 0 || b <= 0) return null;
  const [x, y] = [foldToDnb(a), foldToDnb(b)];
  return Math.round(((y - x) / x) * 1000) / 10;
}

export function transition(a: OrderTrack, b: OrderTrack): Transition {
  return { tempo_pct: tempoChange(a.bpm, b.bpm), key: keyRelation(a.camelot, b.camelot) };
}

/** Every transition of an order, between row i and row i + 1. */
export function transitions(order: readonly OrderTrack[]): Transition[] {
  return order.slice(1).map((t, i) => transition(order[i], t));
}

/** An order's figures: key clashes, the largest tempo step (absolute %, 0 when none is known), steps over 4 %. */
export interface OrderFigures {
  clashes: number;
  max_step_pct: number;
  steps_over: number;
}

export function orderFigures(order: readonly OrderTrack[]): OrderFigures {
  let clashes = 0, max = 0, over = 0;
  for (const t of transitions(order)) {
    if (t.key === "clash") clashes++;
    const step = Math.abs(t.tempo_pct ?? 0);
    if (step > max) max = step;
    if (step > MAX_TEMPO_STEP_PCT) over++;
  }
  return { clashes, max_step_pct: max, steps_over: over };
}

/** Per-pair costs, computed once: [steps over 4 % (0/1), clash (0/1), a softer preference score]. */
interface Costs {
  over: Uint8Array;
  clash: Uint8Array;
  soft: Float64Array;
}

const SOFT_KEY: Record<KeyRelation, number> = { same: 0, "+1": 1, "-1": 1, relative: 1.5, clash: 4, unknown: 2 };

function pairCosts(tracks: readonly OrderTrack[]): Costs {
  const n = tracks.length;
  const over = new Uint8Array(n * n), clash = new Uint8Array(n * n), soft = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const t = transition(tracks[i], tracks[j]);
      const step = Math.abs(t.tempo_pct ?? 0);
      over[i * n + j] = step > MAX_TEMPO_STEP_PCT ? 1 : 0;
      clash[i * n + j] = t.key === "clash" ? 1 : 0;
      soft[i * n + j] = SOFT_KEY[t.key] + step / MAX_TEMPO_STEP_PCT;
    }
  }
  return { over, clash, soft };
}

/** An order's score, compared in turn: steps over 4 %, clashes, then the softer preference. */
type Score = [number, number, number];

function score(path: readonly number[], c: Costs, n: number): Score {
  let over = 0, clash = 0, soft = 0;
  for (let i = 1; i < path.length; i++) {
    const k = path[i - 1] * n + path[i];
    over += c.over[k];
    clash += c.clash[k];
    soft += c.soft[k];
  }
  return [over, clash, soft];
}

function better(a: Score, b: Score): boolean {
  if (a[0] !== b[0]) return a[0] < b[0];
  if (a[1] !== b[1]) return a[1] < b[1];
  return a[2] < b[2] - 1e-9;
}

/**
 * Improves `path` (first element fixed) by moving runs of one to three tracks elsewhere and by
 * reversing stretches, taking each move that makes the score better, in a fixed order: the same
 * input always gives the same answer. Passes are capped, so 30 tracks take a few milliseconds.
 */
function improve(start: number[], c: Costs, n: number): { path: number[]; score: Score } {
  let path = start;
  let best = score(path, c, n);
  for (let pass = 0; pass < 40; pass++) {
    let moved = false;
    for (let len = 1; len <= 3; len++) {
      for (let from = 1; from + len <= path.length; from++) {
        const run = path.slice(from, from + len);
        const rest = [...path.slice(0, from), ...path.slice(from + len)];
        for (let to = 1; to <= rest.length; to++) {
          if (to === from) continue;
          const next = [...rest.slice(0, to), ...run, ...rest.slice(to)];
          const s = score(next, c, n);
          if (better(s, best)) [path, best, moved] = [next, s, true];
        }
      }
    }
    for (let i = 1; i < path.length - 1; i++) {
      for (let j = i + 1; j < path.length; j++) {
        const next = [...path.slice(0, i), ...path.slice(i, j + 1).reverse(), ...path.slice(j + 1)];
        const s = score(next, c, n);
        if (better(s, best)) [path, best, moved] = [next, s, true];
      }
    }
    if (!moved) break;
  }
  return { path, score: best };
}

/** The tracks by folded tempo (unknown last), ties by position in the given order. */
function byTempo(tracks: readonly OrderTrack[]): number[] {
  const t = (i: number) => (tracks[i].bpm ? foldToDnb(tracks[i].bpm!) : Infinity);
  return tracks.map((_, i) => i).sort((a, b) => t(a) - t(b) || a - b);
}

/** Starting orders, each beginning with `first`: the given one, by tempo outward, a greedy walk. */
function candidates(tracks: readonly OrderTrack[], first: number, c: Costs): number[][] {
  const n = tracks.length;
  const rest = (list: number[]) => list.filter((i) => i !== first);
  const given = [first, ...rest(tracks.map((_, i) => i))];
  const sorted = byTempo(tracks);
  const k = sorted.indexOf(first);
  // Down to the slowest, then up from the next faster; and the zig-zag that leaves every other track
  // on the way down to take on the way back up: between them a chain exists from a middle start.
  const downUp = [first, ...sorted.slice(0, k).reverse(), ...sorted.slice(k + 1)];
  const upDown = [first, ...sorted.slice(k + 1), ...sorted.slice(0, k).reverse()];
  const below = sorted.slice(0, k).reverse();
  const zigzag = [
    first,
    ...below.filter((_, i) => i % 2 === 1),
    ...below.filter((_, i) => i % 2 === 0).reverse(),
    ...sorted.slice(k + 1),
  ];
  const greedy = [first];
  const left = new Set(rest(given));
  while (left.size > 0) {
    const at = greedy[greedy.length - 1];
    let pick = -1;
    let pickScore: Score = [Infinity, Infinity, Infinity];
    for (const j of left) {
      const s: Score = [c.over[at * n + j], c.clash[at * n + j], c.soft[at * n + j]];
      if (better(s, pickScore)) [pick, pickScore] = [j, s];
    }
    greedy.push(pick);
    left.delete(pick);
  }
  return [given, downUp, upDown, zigzag, greedy];
}

/**
 * The suggested running order of `tracks` (in their current order), starting with `firstId` (the
 * current first track when left out). It never scores worse than the given order (rotated to start
 * with `firstId`): first fewer steps over 4 %, then fewer Camelot clashes, then closer keys and
 * smaller steps. When a chain with every step within 4 % exists from the first track by tempo (or
 * zig-zagging down and back up), the answer keeps every step within 4 %.
 */
export function suggestOrder(tracks: readonly OrderTrack[], firstId?: number): number[] {
  if (tracks.length <= 1) return tracks.map((t) => t.id);
  const firstAt = firstId === undefined ? 0 : tracks.findIndex((t) => t.id === firstId);
  if (firstAt < 0) throw new Error("the first track is not one of the tracks");
  const n = tracks.length;
  const c = pairCosts(tracks);
  let best: { path: number[]; score: Score } | null = null;
  for (const start of candidates(tracks, firstAt, c)) {
    const found = improve(start, c, n);
    if (!best || better(found.score, best.score)) best = found;
  }
  return best!.path.map((i) => tracks[i].id);
}
