import { describe, expect, it } from "vitest";
import { findDrop } from "./drop.ts";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { concat, drums, feed } from "../testing/audio-signals.ts";

const FS = 44100;

function dropOf(x: Float32Array) {
  const a = createPcmAnalyser(FS, 1);
  feed(a.push, [x], 4608);
  return a.finish().drop_s;
}

const intro = (seconds: number) => drums({ bpm: 174, seconds, sampleRate: FS, hats: 0.5 });
const body = (seconds: number) =>
  drums({ bpm: 174, seconds, sampleRate: FS, kick: 0.6, snare: 0.4, hats: 0.3, bass: 0.4, seed: 9 });

describe("drop detection", () => {
  it.each([12, 20.5, 33])("finds the drop after a hats-only intro of %d s", (seconds) => {
    const drop = dropOf(concat(intro(seconds), body(30)));
    expect(drop).not.toBeNull();
    expect(Math.abs(drop! - seconds)).toBeLessThanOrEqual(0.3);
  });

  it("finds the drop after an intro with drums but no bass", () => {
    const quietDrums = drums({ bpm: 174, seconds: 16, sampleRate: FS, snare: 0.4, hats: 0.3 });
    expect(Math.abs(dropOf(concat(quietDrums, body(30)))! - 16)).toBeLessThanOrEqual(0.3);
  });

  it("has no drop when the bass is there from the start, or never comes", () => {
    expect(dropOf(body(40))).toBeNull();
    expect(dropOf(intro(40))).toBeNull();
    expect(dropOf(new Float32Array(FS * 20))).toBeNull();
  });

  it("does not take a short bass hit in the intro for the drop", () => {
    const hit = drums({ bpm: 174, seconds: 1, sampleRate: FS, bass: 0.5 });
    const x = concat(intro(8), hit, intro(9), body(30));
    expect(Math.abs(dropOf(x)! - 18)).toBeLessThanOrEqual(0.3);
  });

  it("reads a level series: quiet for 5 s then loud", () => {
    const levels = Float32Array.from({ length: 300 }, (_, i) => (i < 50 ? -80 : -12 + (i % 3)));
    expect(findDrop(levels, 10)).toBe(5);
    expect(findDrop(levels.subarray(0, 60), 10)).toBeNull(); // too short to be sustained
  });
});
