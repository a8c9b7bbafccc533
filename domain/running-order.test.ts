import { describe, expect, it } from "vitest";
import {
  keyRelation,
  MAX_TEMPO_STEP_PCT,
  orderFigures,
  type OrderTrack,
  suggestOrder,
  tempoChange,
  transitions,
} from "./running-order.ts";

/** A small deterministic generator (mulberry32), so every run draws the same sets. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const code = (r: () => number) => `${1 + Math.floor(r() * 12)}${r() < 0.5 ? "A" : "B"}`;

function shuffled<T>(list: T[], r: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const byId = (tracks: OrderTrack[], ids: number[]) => ids.map((id) => tracks.find((t) => t.id === id)!);

describe("transitions", () => {
  it("names the Camelot relation: same, ±1 around the wheel, relative, clash, unknown", () => {
    expect(keyRelation("8A", "8A")).toBe("same");
    expect(keyRelation("8A", "9A")).toBe("+1");
    expect(keyRelation("12B", "1B")).toBe("+1");
    expect(keyRelation("1A", "12A")).toBe("-1");
    expect(keyRelation("8A", "8B")).toBe("relative");
    expect(keyRelation("8A", "10A")).toBe("clash");
    expect(keyRelation("8A", "9B")).toBe("clash");
    expect(keyRelation(null, "9B")).toBe("unknown");
    expect(keyRelation("13A", "1A")).toBe("unknown");
  });

  it("gives the tempo change in percent, half-time folded; null without a tempo", () => {
    expect(tempoChange(170, 174)).toBe(2.4);
    expect(tempoChange(174, 170)).toBe(-2.3);
    expect(tempoChange(87, 174)).toBe(0);
    expect(tempoChange(null, 174)).toBeNull();
    const t = transitions([{ id: 1, bpm: 170, camelot: "4A" }, { id: 2, bpm: 180, camelot: "5A" }]);
    expect(t).toEqual([{ tempo_pct: 5.9, key: "+1" }]);
    expect(orderFigures([{ id: 1, bpm: 170, camelot: "4A" }, { id: 2, bpm: 180, camelot: "9B" }]))
      .toEqual({ clashes: 1, max_step_pct: 5.9, steps_over: 1 });
  });
});

describe("suggestOrder on generated sets of 30 tracks", () => {
  it("within one tempo band: never more clashes than the given order, starting with the chosen track", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const r = rng(seed);
      const tracks = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, bpm: 172 + r() * 4, camelot: code(r) }));
      const given = shuffled(tracks, r);
      const first = given[Math.floor(r() * 30)].id;
      const ids = suggestOrder(given, first);
      expect(ids[0]).toBe(first);
      expect([...ids].sort((a, b) => a - b)).toEqual(tracks.map((t) => t.id));
      const rotated = [given.find((t) => t.id === first)!, ...given.filter((t) => t.id !== first)];
      const mine = orderFigures(byId(tracks, ids));
      expect(mine.clashes, `seed ${seed}`).toBeLessThanOrEqual(orderFigures(rotated).clashes);
      expect(mine.steps_over).toBe(0);
    }
  });

  it("across 160–190 BPM: every step within 4 % whenever a chain exists from the first track", () => {
    for (let seed = 100; seed < 125; seed++) {
      const r = rng(seed);
      // Tempos a chain can walk: each at most 3 % above the one before, shuffled.
      let bpm = 160;
      const tracks = Array.from({ length: 30 }, (_, i) => {
        bpm = Math.min(190, bpm * (1 + r() * 0.03));
        return { id: i + 1, bpm, camelot: code(r) };
      });
      const given = shuffled(tracks, r);
      expect(orderFigures(given).steps_over).toBeGreaterThan(0);
      const slowest = tracks[0].id;
      const figures = orderFigures(byId(tracks, suggestOrder(given, slowest)));
      expect(figures.steps_over, `seed ${seed}`).toBe(0);
      expect(figures.max_step_pct).toBeLessThanOrEqual(MAX_TEMPO_STEP_PCT);
      // Never worse than the given order on its first measure either.
      const fromGivenFirst = orderFigures(byId(tracks, suggestOrder(given)));
      expect(fromGivenFirst.steps_over).toBeLessThanOrEqual(orderFigures(given).steps_over);
    }
  });

  it("is deterministic and fast: the same answer each time, 30 tracks well under 50 ms", () => {
    const r = rng(7);
    const tracks = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, bpm: 160 + r() * 30, camelot: code(r) }));
    const first = suggestOrder(tracks);
    let slowest = 0;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      expect(suggestOrder(tracks)).toEqual(first);
      slowest = Math.max(slowest, performance.now() - t0);
    }
    expect(slowest).toBeLessThan(50);
  });

  it("keeps an order that is already best, handles unknown keys and tempos, refuses a stranger as first", () => {
    const tracks = [
      { id: 1, bpm: 170, camelot: "8A" },
      { id: 2, bpm: 171, camelot: "9A" },
      { id: 3, bpm: 172, camelot: "10A" },
    ];
    expect(suggestOrder(tracks)).toEqual([1, 2, 3]);
    expect(suggestOrder([{ id: 5, bpm: null, camelot: null }, { id: 6, bpm: 170, camelot: "1A" }])).toEqual([5, 6]);
    expect(() => suggestOrder(tracks, 99)).toThrow();
  });
});
