/**
 * Synthetic drum grooves with a known tempo, for the tempo tests and the analysis bench (issue 22).
 * Nothing in production imports it.
 *
 * Instruments: a kick (a sine sweeping from 150 down to 50 Hz, 150 ms decay), a snare (a noise burst
 * over a 190 Hz tone), closed hats (high-passed 30 ms noise) and an optional sub bass that enters at a
 * known second (optionally with a quieter bass before it, a breakdown, and a louder second half, for
 * the drop tests: 0214). Patterns, in beats of a 4/4 bar:
 *
 * - `two-step`: drum and bass's standard groove, kick on 1 and the "and" of 3, snare on 2 and 4, hats
 *   on the eighths (at 160–180 BPM; at 85–87 the same groove is a half-time reading of 170–174);
 * - `dubstep`: kick on 1, snare on 3 (the half-time feel of 140), hats on the eighths;
 * - `house`: kick on every beat, clap on 2 and 4, hats on the off-beat eighths.
 */
import { noiseSource } from "./audio-signals.ts";

export type GroovePattern = "two-step" | "dubstep" | "house";

export interface GrooveOptions {
  pattern: GroovePattern;
  bpm: number;
  seconds: number;
  sampleRate: number;
  /** 1 or 2; a stereo groove pans the hats a little to one side. */
  channels?: 1 | 2;
  /** Second at which a 50 Hz sub bass enters; none when absent. */
  bassFrom?: number;
  /** The sub bass plays before `bassFrom` too, this many dB under its level (a quiet bass in the intro). */
  introBassDb?: number;
  /** The sub bass leaves between these two seconds (a breakdown) and comes back. */
  breakdown?: [number, number];
  /** From this second the whole groove is `louderDb` louder (a second half louder than the first drop). */
  louderFrom?: number;
  louderDb?: number;
  seed?: number;
}

interface Hits {
  kick: number[];
  snare: number[];
  hats: number[];
}

const PATTERNS: Record<GroovePattern, Hits> = {
  "two-step": { kick: [0, 2.5], snare: [1, 3], hats: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5] },
  dubstep: { kick: [0], snare: [2], hats: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5] },
  house: { kick: [0, 1, 2, 3], snare: [1, 3], hats: [0.5, 1.5, 2.5, 3.5] },
};

function render(seconds: number, fs: number, f: (t: number, i: number) => number): Float32Array {
  const out = new Float32Array(Math.round(seconds * fs));
  for (let i = 0; i < out.length; i++) out[i] = f(i / fs, i);
  return out;
}

function instruments(fs: number, seed: number) {
  const noise = noiseSource(seed);
  let ph = 0;
  const kick = render(0.3, fs, (t) => {
    ph += (2 * Math.PI * (50 + 100 * Math.exp(-t / 0.025))) / fs;
    return Math.exp(-t / 0.15) * Math.sin(ph);
  });
  const snare = render(
    0.2,
    fs,
    (t) => Math.exp(-t / 0.06) * (0.7 * noise() + 0.5 * Math.exp(-t / 0.04) * Math.sin(2 * Math.PI * 190 * t)),
  );
  // High-passed noise: the second difference of white noise, strongest above 10 kHz.
  let p1 = 0, p2 = 0;
  const hat = render(0.04, fs, (t) => {
    const x = noise();
    const y = x - 2 * p1 + p2;
    p2 = p1;
    p1 = x;
    return 0.25 * Math.exp(-t / 0.012) * y;
  });
  return { kick, snare, hat };
}

/** The groove as planar channels. */
export function groove(o: GrooveOptions): Float32Array[] {
  const fs = o.sampleRate;
  const n = Math.round(o.seconds * fs);
  const channelCount = o.channels ?? 1;
  const out = Array.from({ length: channelCount }, () => new Float32Array(n));
  const sounds = instruments(fs, o.seed ?? 3);
  const vary = noiseSource((o.seed ?? 3) + 101);
  const beat = (60 / o.bpm) * fs;
  const hits = PATTERNS[o.pattern];
  const add = (sound: Float32Array, at: number, gain: number, pan = 0) => {
    for (let c = 0; c < channelCount; c++) {
      const g = channelCount === 1 ? gain : gain * (c === 0 ? 1 - pan : 1 + pan);
      const ch = out[c];
      for (let i = 0; i < sound.length && at + i < n; i++) ch[at + i] += g * sound[i];
    }
  };
  for (let bar = 0; bar * 4 * beat < n; bar++) {
    const at = (b: number) => Math.round((bar * 4 + b) * beat);
    for (const b of hits.kick) add(sounds.kick, at(b), 0.55);
    for (const b of hits.snare) add(sounds.snare, at(b), 0.4);
    // Hats a little uneven, as played: the on-beat ones louder.
    for (const b of hits.hats) add(sounds.hat, at(b), (b % 1 === 0 ? 0.35 : 0.25) * (1 + 0.15 * vary()), 0.2);
  }
  if (o.bassFrom !== undefined) {
    const from = Math.round(o.bassFrom * fs);
    const intro = o.introBassDb === undefined ? 0 : 10 ** (o.introBassDb / 20);
    const [pauseFrom, pauseTo] = (o.breakdown ?? [0, 0]).map((s) => Math.round(s * fs));
    for (let i = intro > 0 ? 0 : from; i < n; i++) {
      const gain = i < from ? intro : i >= pauseFrom && i < pauseTo ? 0 : 1;
      const v = gain * 0.25 * Math.sin((2 * Math.PI * 50 * (i - from)) / fs);
      for (const ch of out) ch[i] += v;
    }
  }
  if (o.louderFrom !== undefined) {
    const gain = 10 ** ((o.louderDb ?? 6) / 20);
    for (const ch of out) for (let i = Math.round(o.louderFrom * fs); i < n; i++) ch[i] *= gain;
  }
  return out;
}

/** The tempo a groove should read as: drum and bass's half time folded to 160–190. */
export function expectedBpm(o: Pick<GrooveOptions, "bpm">): number {
  return o.bpm < 100 ? o.bpm * 2 : o.bpm;
}
