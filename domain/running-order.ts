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

/**
 * Per-pair cost, computed once, as one number that compares like the tuple (steps over 4 %, clashes,
 * softer preference): a step over 4 % weighs 10⁷, a clash 10⁴, and the softer score (same key 0, ±1
 * 1, relative 1.5, unknown 2, clash 4, plus the step in units of 4 %, counted up to 8 %) is at most 6
 * an edge, under 10⁴ for the 200 tracks an episode may hold; so no measure is traded for the next.
 */
const OVER_WEIGHT = 1e7;
const CLASH_WEIGHT = 1e4;
const SOFT_KEY: Record<KeyRelation, number> = { same: 0, "+1": 1, "-1": 1, relative: 1.5, clash: 4, unknown: 2 };

function pairCosts(tracks: readonly OrderTrack[]): Float64Array {
  const n = tracks.length;
  const w = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const t = transition(tracks[i], tracks[j]);
      const step = Math.abs(t.tempo_pct ?? 0);
      // The soft part is capped per step so a wild tempo (outside DnB's window) cannot outweigh a clash.
      const soft = SOFT_KEY[t.key] + Math.min(step, MAX_TEMPO_STEP_PCT * 2) / MAX_TEMPO_STEP_PCT;
      w[i * n + j] = (step > MAX_TEMPO_STEP_PCT ? OVER_WEIGHT : 0) + (t.key === "clash" ? CLASH_WEIGHT : 0) +
        soft;
    }
  }
  return w;
}

function cost(path: readonly number[], w: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 1; i < path.length; i++) sum += w[path[i - 1] * n + path[i]];
  return sum;
}

const EPS = 1e-9;

/** The best move of a run of 1–3 tracks elsewhere (first improving one, in a fixed order); null: none. */
function runMove(p: number[], w: Float64Array, n: number): number[] | null {
  const m = p.length;
  const at = (x: number, y: number) => (y === undefined ? 0 : w[x * n + y]);
  for (let len = 1; len <= 3; len++) {
    for (let i = 1; i + len <= m; i++) {
      const prev = p[i - 1], s0 = p[i], sl = p[i + len - 1], next = p[i + len];
      // Taking the run out: its two edges go, its neighbours meet.
      const out = -at(prev, s0) - (next === undefined ? 0 : at(sl, next)) + (next === undefined ? 0 : at(prev, next));
      for (let k = 0; k < m; k++) {
        if (k >= i - 1 && k <= i + len - 1) continue;
        const a = p[k], b = p[k + 1];
        const into = (b === undefined ? 0 : -at(a, b) + at(sl, b)) + at(a, s0);
        if (out + into < -EPS) {
          const run = p.slice(i, i + len);
          const rest = [...p.slice(0, i), ...p.slice(i + len)];
          const pos = rest.indexOf(a) + 1;
          return [...rest.slice(0, pos), ...run, ...rest.slice(pos)];
        }
      }
    }
  }
  return null;
}

/** The first stretch whose reversal lowers the cost (costs are not symmetric: both ways summed); null: none. */
function reversal(p: number[], w: Float64Array, n: number): number[] | null {
  const m = p.length;
  for (let i = 1; i < m - 1; i++) {
    let forward = 0, backward = 0;
    for (let j = i + 1; j < m; j++) {
      forward += w[p[j - 1] * n + p[j]];
      backward += w[p[j] * n + p[j - 1]];
      const after = p[j + 1];
      const before = w[p[i - 1] * n + p[i]] + (after === undefined ? 0 : w[p[j] * n + after]) + forward;
      const reversed = w[p[i - 1] * n + p[j]] + (after === undefined ? 0 : w[p[i] * n + after]) + backward;
      if (reversed < before - EPS) return [...p.slice(0, i), ...p.slice(i, j + 1).reverse(), ...p.slice(j + 1)];
    }
  }
  return null;
}

/**
 * Improves `start` (first element fixed) by moving runs of one to three tracks elsewhere and by
 * reversing stretches, taking the first move that lowers the cost, in a fixed order: the same input
 * always gives the same answer. Each move's change is computed from the edges it touches.
 */
function improve(start: number[], w: Float64Array, n: number): { path: number[]; cost: number } {
  let path = start;
  for (let step = 0; step < 2000; step++) {
    const next = runMove(path, w, n) ?? reversal(path, w, n);
    if (!next) break;
    path = next;
  }
  return { path, cost: cost(path, w, n) };
}

/** The tracks by folded tempo (unknown last), ties by position in the given order. */
function byTempo(tracks: readonly OrderTrack[]): number[] {
  const t = (i: number) => (tracks[i].bpm ? foldToDnb(tracks[i].bpm!) : Infinity);
  return tracks.map((_, i) => i).sort((a, b) => t(a) - t(b) || a - b);
}

/** Starting orders, each beginning with `first`: the given one, by tempo outward, a greedy walk. */
function candidates(tracks: readonly OrderTrack[], first: number, w: Float64Array): number[][] {
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
    let pickCost = Infinity;
    for (const j of left) {
      if (w[at * n + j] < pickCost - EPS) [pick, pickCost] = [j, w[at * n + j]];
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
  const w = pairCosts(tracks);
  let best: { path: number[]; cost: number } | null = null;
  for (const start of candidates(tracks, firstAt, w)) {
    const found = improve(start, w, n);
    if (!best || found.cost < best.cost - EPS) best = found;
  }
  return best!.path.map((i) => tracks[i].id);
}
