import { describe, expect, it } from "vitest";
import { CLIP_LEVEL, CLIP_RUN, createClipCounter } from "./clipping.ts";
import { feed } from "../testing/audio-signals.ts";

function count(channels: number[][], chunk?: number) {
  const c = createClipCounter(channels.length);
  feed(c.push, channels.map((x) => Float32Array.from(x)), chunk);
  return c.count();
}

/** Independent oracle: label each sample +1, -1 or 0, split into runs of equal labels, keep the long ones. */
function oracle(x: ArrayLike<number>) {
  const label = (v: number) => (v >= CLIP_LEVEL ? 1 : v <= -CLIP_LEVEL ? -1 : 0);
  let total = 0;
  let start = 0;
  for (let i = 1; i <= x.length; i++) {
    if (i < x.length && label(x[i]) === label(x[start])) continue;
    if (label(x[start]) !== 0 && i - start >= CLIP_RUN) total += i - start;
    start = i;
  }
  return total;
}

describe("clipped samples", () => {
  it("counts samples in same-sign runs of two or more at full scale", () => {
    expect(count([[0, 1, 0, 0.5, -1, 0]])).toBe(0); // legitimate single peaks
    expect(count([[0, 1, 1, 0]])).toBe(2);
    expect(count([[0, 1, 1, 1, 0]])).toBe(3);
    expect(count([[-1, -1, -1, -1, 0.5, 1, 1.02, 1]])).toBe(7); // beyond full scale counts too
    expect(count([[0.9998, 0.9998, 0.9998, 0.9998]])).toBe(0);
    expect(count([[1, -1, 1, -1, 1]])).toBe(0); // a loud tone at fs/2, not a flat top
    expect(count([[1, 1, -1, -1, -1]])).toBe(5);
  });

  it("follows runs across chunk edges and sums the channels", () => {
    const left = [0, 1, 1, 1, 1, 0, 1, 0, 1, 1];
    const right = [1, 1, 0, 0, 0, 0, -1, -1, -1, -1];
    for (const chunk of [1, 2, 3, 10]) expect(count([left, right], chunk)).toBe(6 + 6);
  });

  it("agrees with a plain run count on a clipped sine and on a ±1 rattle", () => {
    const x = Array.from({ length: 44100 }, (_, i) => Math.max(-1, Math.min(1, 1.5 * Math.sin(i / 9))));
    const expected = oracle(Float32Array.from(x));
    expect(expected).toBeGreaterThan(10000);
    expect(count([x], 1152)).toBe(expected);
    const rattle = Array.from({ length: 5000 }, (_, i) => (i % 7 < 3 ? 1 : i % 7 === 3 ? -1 : 0.2));
    expect(count([rattle], 100)).toBe(oracle(Float32Array.from(rattle)));
    expect(oracle(Float32Array.from(rattle))).toBeGreaterThan(1000);
  });
});
