/**
 * Chord progressions in known keys, for the key tests and the analysis bench (issue 22). Nothing in
 * production imports it.
 *
 * One chord a bar (4 beats at `bpm`) over an 8-bar loop that opens and closes on the tonic, as
 * produced music does (without that, a minor loop and its relative major's hold the same notes):
 *
 * - minor: i – VI – III – VII – i – iv – VII – i (in A minor: Am F C G Am Dm G Am);
 * - major: I – V – vi – IV – I – IV – V – I (in C major: C G Am F C F G C).
 *
 * Each chord is a pad of its three notes voiced between G3 and F#4 plus a bass on its root between A1
 * and G#2, both saw-like (8 partials at 1/n), with a short attack and release. The whole is tuned off
 * A = 440 Hz by `tuningCents` (a produced track need not sit on 440), and laid over the two-step
 * groove of grooves.ts when `drums` is set.
 */
import { camelotOf, type KeyMode, keyName } from "../../domain/musical-key.ts";
import { groove, type GroovePattern } from "./grooves.ts";

/** A chord: its root in semitones above the tonic, and whether its third is minor. */
export type Chord = [number, "maj" | "min"];

const PROGRESSIONS: Record<KeyMode, Chord[]> = {
  minor: [[0, "min"], [8, "maj"], [3, "maj"], [10, "maj"], [0, "min"], [5, "min"], [10, "maj"], [0, "min"]],
  major: [[0, "maj"], [7, "maj"], [9, "min"], [5, "maj"], [0, "maj"], [5, "maj"], [7, "maj"], [0, "maj"]],
};

export interface ChordTrackOptions {
  /** Pitch class of the tonic, 0 = C … 11 = B. */
  tonic: number;
  mode: KeyMode;
  seconds: number;
  sampleRate: number;
  channels?: 1 | 2;
  bpm?: number;
  /** Lay the two-step groove (drums only, no bass) under the chords. */
  drums?: boolean;
  /** The drums' pattern (grooves.ts) when `drums` is set; two-step by default. */
  drumPattern?: GroovePattern;
  /** Another loop of chords in the key than the mode's own (the fingerprint fixtures' second groove). */
  progression?: Chord[];
  /** Offset of the whole track from A = 440 Hz, in cents. */
  tuningCents?: number;
  seed?: number;
}

const midiHz = (midi: number, cents: number) => 440 * 2 ** ((midi - 69 + cents / 100) / 12);

/** The note of pitch class `pc` within [from, from + 12) (MIDI numbers). */
const place = (pc: number, from: number) => from + ((((pc - from) % 12) + 12) % 12);

function addSaw(out: Float32Array, fs: number, hz: number, gain: number, start: number, length: number) {
  const partials = Math.min(8, Math.floor(fs / 2 / hz) - 1);
  const attack = Math.round(0.01 * fs), release = Math.round(0.05 * fs);
  for (let p = 1; p <= partials; p++) {
    // A rotating phasor (cheaper than a sine a sample; exact enough over a bar).
    const w = (2 * Math.PI * hz * p) / fs;
    const cw = Math.cos(w), sw = Math.sin(w);
    let c = 1, s = 0;
    const g = gain / p;
    for (let i = 0; i < length && start + i < out.length; i++) {
      const env = Math.min(1, i / attack, (length - i) / release);
      out[start + i] += g * env * s;
      const c2 = c * cw - s * sw;
      s = s * cw + c * sw;
      c = c2;
    }
  }
}

/** The chord track as planar channels (peaks stay under 1). */
export function chordTrack(o: ChordTrackOptions): Float32Array[] {
  const fs = o.sampleRate;
  const n = Math.round(o.seconds * fs);
  const bpm = o.bpm ?? 174;
  const cents = o.tuningCents ?? 0;
  const bar = Math.round(((60 * 4) / bpm) * fs);
  const music = new Float32Array(n);
  const loop = o.progression ?? PROGRESSIONS[o.mode];
  for (let b = 0; b * bar < n; b++) {
    const [step, quality] = loop[b % loop.length];
    const root = (o.tonic + step) % 12;
    const notes = [root, root + (quality === "min" ? 3 : 4), root + 7].map((pc) => place(pc % 12, 55));
    for (const midi of notes) addSaw(music, fs, midiHz(midi, cents), 0.09, b * bar, bar);
    addSaw(music, fs, midiHz(place(root, 33), cents), 0.22, b * bar, bar);
  }
  const channelCount = o.channels ?? 1;
  const drums = o.drums
    ? groove({
      pattern: o.drumPattern ?? "two-step",
      bpm,
      seconds: o.seconds,
      sampleRate: fs,
      channels: channelCount,
      seed: o.seed,
    })
    : null;
  return Array.from({ length: channelCount }, (_, c) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = 0.8 * music[i] + (drums ? 0.7 * drums[c][i] : 0);
    return out;
  });
}

/** The 24 keys of the corpus with their expected name and Camelot code, C major first. */
export const CHORD_KEYS: { tonic: number; mode: KeyMode; key: string; camelot: string }[] = Array.from(
  { length: 24 },
  (_, i) => {
    const tonic = i >> 1;
    const mode: KeyMode = i % 2 === 0 ? "major" : "minor";
    return { tonic, mode, key: keyName(tonic, mode), camelot: camelotOf(tonic, mode) };
  },
);

/**
 * How a reading relates to the truth: "right", "neighbour" (the relative key, or a fifth away in the
 * same mode: one step round the Camelot wheel, or the other letter on the same number) or "other".
 */
export function keyVerdict(truth: string, read: string | null): "right" | "neighbour" | "other" {
  if (read === truth) return "right";
  const m = /^(\d+)([AB])$/.exec(truth), r = read ? /^(\d+)([AB])$/.exec(read) : null;
  if (!m || !r) return "other";
  const step = (((Number(r[1]) - Number(m[1])) % 12) + 12) % 12;
  if (r[2] === m[2] && (step === 1 || step === 11)) return "neighbour";
  if (r[2] !== m[2] && step === 0) return "neighbour";
  return "other";
}
