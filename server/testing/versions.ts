/**
 * A piece with separate stems, for the fingerprint's version fixtures (issue 38,
 * scripts/make-version-fixtures.ts) and tests. Nothing in production imports it.
 *
 * D minor at 172 BPM, an 8-bar loop (i – VI – III – VII – i – iv – VII – i): the two-step groove of
 * grooves.ts (drums), a gated bass on the chord's root (A1–G#2, two detuned saws), pads of the
 * chord's three notes (G3–F#4) and a sung-like lead (a melody between A4 and D5: a fundamental
 * with falling partials and a 5 Hz vibrato) standing for the vocal. `take` plays the same notes
 * again as another performance would: each note and hit moved by up to `humanise` seconds, its level
 * by up to ±2 dB, other drum sounds and another vibrato.
 */
import { groove } from "./grooves.ts";
import { noiseSource } from "./audio-signals.ts";

export interface PieceOptions {
  seconds: number;
  sampleRate: number;
  /** 0: the recording itself; another number: another take of the same notes. */
  take?: number;
  /** Largest timing deviation of a note or hit in another take, in seconds (0.02 by default). */
  humanise?: number;
}

export interface Stems {
  drums: Float32Array;
  bass: Float32Array;
  pads: Float32Array;
  lead: Float32Array;
}

const BPM = 172;
const TONIC = 2;
const LOOP: [number, "maj" | "min"][] = [[0, "min"], [8, "maj"], [3, "maj"], [10, "maj"], [0, "min"], [5, "min"], [
  10,
  "maj",
], [0, "min"]];
/** The lead's melody over two bars: [beat, length in beats, semitones above the tonic's D5 − 12]. */
const MELODY: [number, number, number][] = [
  [0, 1, 12],
  [1, 0.5, 10],
  [1.5, 0.5, 8],
  [2, 1.5, 7],
  [4, 0.5, 5],
  [4.5, 0.5, 7],
  [5, 1, 8],
  [6, 1, 3],
  [7, 0.5, 5],
];

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
const place = (pc: number, from: number) => from + ((((pc - from) % 12) + 12) % 12);

function tone(
  out: Float32Array,
  fs: number,
  f: number,
  gain: number,
  start: number,
  length: number,
  partials: number[],
  vibrato = 0,
  vibratoHz = 5,
) {
  const attack = Math.round(0.01 * fs), release = Math.round(0.04 * fs);
  for (let p = 0; p < partials.length; p++) {
    const fp = f * (p + 1);
    if (fp >= fs / 2) break;
    let phase = 0;
    for (let i = 0; i < length && start + i < out.length; i++) {
      if (start + i < 0) continue;
      const env = Math.min(1, i / attack, (length - i) / release);
      const bend = vibrato ? 2 ** ((vibrato * Math.sin((2 * Math.PI * vibratoHz * i) / fs)) / 1200) : 1;
      phase += (2 * Math.PI * fp * bend) / fs;
      out[start + i] += gain * partials[p] * env * Math.sin(phase);
    }
  }
}

/** The piece's four stems, mono. */
export function pieceStems(o: PieceOptions): Stems {
  const fs = o.sampleRate;
  const n = Math.round(o.seconds * fs);
  const take = o.take ?? 0;
  const jitter = noiseSource(1000 + take);
  const spread = take === 0 ? 0 : (o.humanise ?? 0.02);
  const shift = () => Math.round(jitter() * spread * fs);
  const level = () => (take === 0 ? 1 : 10 ** ((2 * jitter()) / 20));
  const beat = (60 / BPM) * fs;
  const bar = 4 * beat;
  const stems: Stems = {
    drums: groove({ pattern: "two-step", bpm: BPM, seconds: o.seconds, sampleRate: fs, seed: 5 + 7 * take })[0],
    bass: new Float32Array(n),
    pads: new Float32Array(n),
    lead: new Float32Array(n),
  };
  const saw = [1, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6];
  const voice = [1, 0.5, 0.45, 0.2, 0.12, 0.06];
  for (let b = 0; b * bar < n; b++) {
    const [step, quality] = LOOP[b % LOOP.length];
    const root = (TONIC + step) % 12;
    for (const pc of [root, root + (quality === "min" ? 3 : 4), root + 7]) {
      tone(stems.pads, fs, hz(place(pc % 12, 55)), 0.06 * level(), Math.round(b * bar) + shift(), Math.round(bar), saw);
    }
    // The bass on 1, the "and" of 2 and 3 (gated), two saws 7 cents apart.
    for (const [at, len] of [[0, 1.25], [1.5, 1], [2.75, 1.25]]) {
      const start = Math.round(b * bar + at * beat) + shift();
      for (const cents of [-3.5, 3.5]) {
        tone(
          stems.bass,
          fs,
          hz(place(root, 33)) * 2 ** (cents / 1200),
          0.12 * level(),
          start,
          Math.round(len * beat),
          saw,
        );
      }
    }
  }
  for (let two = 0; two * 2 * bar < n; two++) {
    for (const [at, len, semis] of MELODY) {
      const start = Math.round(two * 2 * bar + at * beat) + shift();
      tone(
        stems.lead,
        fs,
        hz(62 + semis),
        0.11 * level(),
        start,
        Math.round(len * beat * 0.95),
        voice,
        25,
        take === 0 ? 5 : 5.6,
      );
    }
  }
  return stems;
}

/** The stereo mix of the stems, without those named in `leaveOut` (peaks kept under 1). */
export function mixStems(stems: Stems, leaveOut: (keyof Stems)[] = []): Float32Array[] {
  const n = stems.drums.length;
  const gains: Record<keyof Stems, [number, number]> = {
    drums: [0.6, 0.6],
    bass: [0.7, 0.7],
    pads: [0.75, 0.6],
    lead: [0.8, 0.9],
  };
  const out = [new Float32Array(n), new Float32Array(n)];
  for (const name of Object.keys(gains) as (keyof Stems)[]) {
    if (leaveOut.includes(name)) continue;
    const s = stems[name], [l, r] = gains[name];
    for (let i = 0; i < n; i++) {
      out[0][i] += l * s[i];
      out[1][i] += r * s[i];
    }
  }
  let peak = 0;
  for (const c of out) for (const x of c) peak = Math.max(peak, Math.abs(x));
  if (peak > 0.95) { for (const c of out) for (let i = 0; i < n; i++) c[i] *= 0.95 / peak; }
  return out;
}
