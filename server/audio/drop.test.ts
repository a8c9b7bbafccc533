import { describe, expect, it } from "vitest";
import { findDrop, novelty } from "./drop.ts";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { concat, drums, feed } from "../testing/audio-signals.ts";
import { groove, type GrooveOptions, type GroovePattern } from "../testing/grooves.ts";

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

/**
 * Issue 22's corpus: the grooves of server/testing/grooves.ts (two-step at 160–180 BPM, half time at
 * 85–87, 140 dubstep, 128 house, drums from the first second) with a 50 Hz sub bass entering at a
 * known second, generated PCM straight into the analyser (the bench reads the same grooves as MP3).
 */
describe("drop of drum grooves (issue 22)", () => {
  const GROOVES: [GroovePattern, number][] = [
    ...[160, 165, 170, 172, 174, 175, 178, 180].map((bpm) => ["two-step", bpm] as [GroovePattern, number]),
    ["two-step", 85],
    ["two-step", 86],
    ["two-step", 87],
    ["dubstep", 140],
    ["house", 128],
  ];
  const SECONDS = [8, 11, 16, 30];
  const FORMATS: [number, 1 | 2][] = [[44100, 1], [48000, 2]];
  const cases = GROOVES.map(([pattern, bpm], i) => {
    const [rate, channels] = FORMATS[i % 2];
    return [pattern, bpm, SECONDS[i % SECONDS.length], rate, channels] as const;
  });

  function dropOfGroove(o: Omit<GrooveOptions, "seconds"> & { seconds?: number }) {
    const a = createPcmAnalyser(o.sampleRate, o.channels ?? 1);
    feed(a.push, groove({ seconds: (o.bassFrom ?? 20) + 8, ...o }), 4608);
    return a.finish().drop_s;
  }
  /** The start of the bar nearest `seconds`: where a produced track brings its bass in. */
  const barNear = (bpm: number, seconds: number) => Math.round((seconds * bpm) / 240) * (240 / bpm);

  it.each(cases)(
    "%s at %d BPM, bass on the bar near %d s (%d Hz, %d ch): the drop is that bar, not the kick before",
    (pattern, bpm, near, sampleRate, channels) => {
      const bassFrom = barNear(bpm, near);
      const drop = dropOfGroove({ pattern, bpm, sampleRate, channels, bassFrom });
      expect(drop).not.toBeNull();
      // Rounded to 0.1 s; the kick before the bar is at least a beat (0.33 s) earlier.
      expect(Math.abs(drop! - bassFrom)).toBeLessThanOrEqual(0.1);
    },
  );

  it.each(cases)(
    "%s at %d BPM, bass from %d s exactly (%d Hz, %d ch): the drop within 1 s, not a kick a beat early",
    (pattern, bpm, bassFrom, sampleRate, channels) => {
      const drop = dropOfGroove({ pattern, bpm, sampleRate, channels, bassFrom });
      expect(drop).not.toBeNull();
      expect(Math.abs(drop! - bassFrom)).toBeLessThanOrEqual(1);
      // Mid-bar, a kick can run into the bass with no gap between them: then it is where the low
      // band rises, up to its length (0.3 s) early. A kick with a gap after it is never taken.
      expect(drop! - bassFrom).toBeGreaterThanOrEqual(-0.35);
      expect(drop! - bassFrom).toBeLessThanOrEqual(0.1);
    },
  );

  it("finds the first drop although the second half is louder (the real piece with its bass at 11 s)", () => {
    const bassFrom = barNear(174, 11);
    const drop = dropOfGroove({
      pattern: "two-step",
      bpm: 174,
      sampleRate: FS,
      bassFrom,
      seconds: 50,
      louderFrom: barNear(174, 30),
      louderDb: 9,
    });
    expect(Math.abs(drop! - bassFrom)).toBeLessThanOrEqual(0.1);
  });

  it("finds the drop after an intro with the bass 20 dB quieter", () => {
    const bassFrom = barNear(172, 16);
    const drop = dropOfGroove({ pattern: "two-step", bpm: 172, sampleRate: FS, bassFrom, introBassDb: -20 });
    expect(Math.abs(drop! - bassFrom)).toBeLessThanOrEqual(0.1);
  });

  it("finds the drop where the bass comes back after a breakdown", () => {
    const back = barNear(174, 28);
    const drop = dropOfGroove({
      pattern: "two-step",
      bpm: 174,
      sampleRate: FS,
      bassFrom: 0,
      breakdown: [barNear(174, 18), back],
      seconds: 45,
    });
    expect(Math.abs(drop! - back)).toBeLessThanOrEqual(0.1);
  });

  it.each([["two-step", 174], ["two-step", 86], ["dubstep", 140], ["house", 128]] as [GroovePattern, number][])(
    "%s at %d BPM: no drop with the bass from the start (even with a louder second half), or with no bass",
    (pattern, bpm) => {
      expect(dropOfGroove({ pattern, bpm, sampleRate: FS, bassFrom: 0, seconds: 40 })).toBeNull();
      expect(dropOfGroove({ pattern, bpm, sampleRate: FS, bassFrom: 0, seconds: 40, louderFrom: 20, louderDb: 9 }))
        .toBeNull();
      expect(dropOfGroove({ pattern, bpm, sampleRate: FS, seconds: 40 })).toBeNull();
    },
  );
});

/**
 * Issue 38: a full-range break with a kick running straight into the drop. The two-step groove
 * with two more kicks (a quieter one, decaying in 0.15 s) on beats 3 and 3½ of every bar before the
 * bass, so the low band hardly rests in the beat and a half before the bar: the drop used to land
 * on the kick on the "and" of 3 (0.5 s early, 6 of 20 such arrangements in the outside check).
 */
describe("drop after a full-range break (issue 38)", () => {
  function breakKick(fs: number): Float32Array {
    const out = new Float32Array(Math.round(0.5 * fs));
    let phase = 0;
    for (let i = 0; i < out.length; i++) {
      const t = i / fs;
      phase += (2 * Math.PI * (50 + 100 * Math.exp(-t / 0.025))) / fs;
      out[i] = Math.exp(-t / 0.15) * Math.sin(phase);
    }
    return out;
  }

  it.each([[172, 8], [174, 16], [178, 12], [180, 8]])(
    "two-step at %d BPM, bass on bar %d: the drop is the bass's first downbeat, not the break's last kick",
    (bpm, bars) => {
      const bassFrom = (bars * 240) / bpm;
      const x = groove({ pattern: "two-step", bpm, seconds: bassFrom + 10, sampleRate: FS, bassFrom, seed: 4 })[0];
      const kick = breakKick(FS), beat = (60 / bpm) * FS;
      for (let bar = 0; bar < bars; bar++) {
        for (const b of [3, 3.5]) {
          const at = Math.round((bar * 4 + b) * beat);
          for (let i = 0; i < kick.length; i++) x[at + i] += 0.3 * kick[i];
        }
      }
      const drop = dropOf(x);
      expect(drop).not.toBeNull();
      expect(Math.abs(drop! - bassFrom)).toBeLessThanOrEqual(0.1);
    },
  );
});

describe("Foote novelty", () => {
  it("peaks where a series steps, and is nothing inside a steady or a steadily alternating stretch", () => {
    const x = Float32Array.from({ length: 200 }, (_, i) => (i < 120 ? (i % 4 ? -80 : -10) : -15));
    const scores = Array.from({ length: 160 }, (_, i) => novelty(x, i + 20, 40));
    expect(scores.indexOf(Math.max(...scores)) + 20).toBe(120);
    const top = Math.max(...scores);
    expect(Math.abs(novelty(x, 60, 20))).toBeLessThan(0.02 * top);
    expect(Math.abs(novelty(x, 170, 20))).toBeLessThan(0.02 * top);
  });
});
