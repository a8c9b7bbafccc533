import { describe, expect, it } from "vitest";
import { CLIP_LEVEL, CLIP_RUN, createClipCounter } from "./clipping.ts";
import { feed } from "./test-signals.ts";

function count(channels: number[][], chunk?: number) {
  const c = createClipCounter(channels.length);
  feed(c.push, channels.map((x) => Float32Array.from(x)), chunk);
  return c.count();
}

/** Independent oracle: split into runs, keep the long ones. */
function oracle(x: ArrayLike<number>) {
  let total = 0;
  let run = 0;
  for (let i = 0; i <= x.length; i++) {
    if (i < x.length && Math.abs(x[i]) >= CLIP_LEVEL) run++;
    else {
      if (run >= CLIP_RUN) total += run;
      run = 0;
    }
  }
  return total;
}

describe("clipped samples", () => {
  it("counts samples in runs of three or more at full scale, either sign", () => {
    expect(count([[0, 1, 1, 0, 1, 0]])).toBe(0); // a legitimate peak or two
    expect(count([[0, 1, 1, 1, 0]])).toBe(3);
    expect(count([[-1, -1, -1, -1, 0.5, 1, 1.02, 1]])).toBe(7);
    expect(count([[0.9998, 0.9998, 0.9998, 0.9998]])).toBe(0);
    expect(count([[1, -1, 1]])).toBe(3); // beyond full scale both ways: the flat tops of a square
  });

  it("follows runs across chunk edges and sums the channels", () => {
    const left = [0, 1, 1, 1, 1, 0, 0, 1, 1, 1];
    const right = [1, 1, 0, 0, 0, 0, -1, -1, -1, -1];
    for (const chunk of [1, 2, 3, 10]) expect(count([left, right], chunk)).toBe(7 + 4);
  });

  it("agrees with a plain run count on a clipped sine", () => {
    const x = Array.from({ length: 44100 }, (_, i) => Math.max(-1, Math.min(1, 1.5 * Math.sin(i / 9))));
    const expected = oracle(Float32Array.from(x));
    expect(expected).toBeGreaterThan(10000);
    expect(count([x], 1152)).toBe(expected);
  });
});
