/**
 * Multi-instrument arrangements in known keys for the key corpus (bench/key-corpus.ts, issue 38),
 * written as Standard MIDI Files and rendered there by fluidsynth with a General MIDI soundfont.
 *
 * The key is known by construction: every pitched note is of the key's scale (natural minor, with the
 * harmonic minor's raised seventh in the dominant chord of some minor progressions), the progression
 * opens and closes on the tonic chord, the bass plays the chord roots (with passing fifths and
 * octaves), and the melody lands on the tonic at the end. Four voices: a lead melody (chord tones on
 * strong beats, scale steps between), chords (a pad or a comping keyboard/guitar), a bass, and GM drums
 * on channel 10 on most pieces. Instruments, tempo, register and progression vary with the seed.
 */
import type { KeyMode } from "../domain/musical-key.ts";

/** Chord roots in semitones above the tonic, and their quality (a triad of the key). */
type Chord = [number, "maj" | "min" | "dim"];

const MAJOR_PROGRESSIONS: Chord[][] = [
  [[0, "maj"], [7, "maj"], [9, "min"], [5, "maj"]], // I V vi IV
  [[0, "maj"], [5, "maj"], [7, "maj"], [0, "maj"]], // I IV V I
  [[0, "maj"], [9, "min"], [2, "min"], [7, "maj"]], // I vi ii V
  [[0, "maj"], [4, "min"], [5, "maj"], [7, "maj"]], // I iii IV V
  [[9, "min"], [5, "maj"], [0, "maj"], [7, "maj"]], // vi IV I V
  [[5, "maj"], [7, "maj"], [0, "maj"], [0, "maj"]], // IV V I I
];
const MINOR_PROGRESSIONS: Chord[][] = [
  [[0, "min"], [8, "maj"], [3, "maj"], [10, "maj"]], // i VI III VII
  [[0, "min"], [5, "min"], [7, "maj"], [0, "min"]], // i iv V i (harmonic minor's V)
  [[0, "min"], [10, "maj"], [8, "maj"], [10, "maj"]], // i VII VI VII
  [[0, "min"], [5, "min"], [8, "maj"], [7, "min"]], // i iv VI v
  [[8, "maj"], [10, "maj"], [0, "min"], [0, "min"]], // VI VII i i
  [[5, "min"], [10, "maj"], [3, "maj"], [7, "maj"]], // iv VII III V
];
const SCALES: Record<KeyMode, number[]> = { major: [0, 2, 4, 5, 7, 9, 11], minor: [0, 2, 3, 5, 7, 8, 10] };

const LEADS = [73, 80, 81, 56, 65, 40, 0, 11, 71, 24];
const CHORDS = [0, 4, 48, 88, 89, 16, 25, 5, 50, 90];
const BASSES = [33, 38, 32, 34, 39, 35];

/**
 * A small generator of numbers in [0, 1): the seed mixed by murmur3's finaliser, then a linear
 * congruential sequence. Unmixed, nearby seeds gave nearly the same first number, and the first
 * number picks the progression: the corpus held 2 of the 6 progressions per mode (0425).
 */
function rng(seed: number) {
  let h = seed >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  let s = (h ^ (h >>> 16)) >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Note {
  tick: number;
  length: number;
  channel: number;
  pitch: number;
  velocity: number;
}

const TPQ = 480;

function varLen(n: number): number[] {
  const out = [n & 0x7f];
  while ((n >>= 7) > 0) out.unshift((n & 0x7f) | 0x80);
  return out;
}

/** A format-0 Standard MIDI File of the notes, with the programs and tempo given. */
function smf(notes: Note[], programs: [number, number][], bpm: number): Uint8Array {
  const events: { tick: number; bytes: number[] }[] = [];
  const usec = Math.round(60_000_000 / bpm);
  events.push({ tick: 0, bytes: [0xff, 0x51, 3, (usec >> 16) & 255, (usec >> 8) & 255, usec & 255] });
  for (const [ch, p] of programs) events.push({ tick: 0, bytes: [0xc0 | ch, p] });
  for (const n of notes) {
    events.push({ tick: n.tick, bytes: [0x90 | n.channel, n.pitch, n.velocity] });
    events.push({ tick: n.tick + n.length, bytes: [0x80 | n.channel, n.pitch, 0] });
  }
  // Note-offs before note-ons at the same tick.
  events.sort((a, b) => a.tick - b.tick || (a.bytes[0] & 0xf0) - (b.bytes[0] & 0xf0));
  const track: number[] = [];
  let last = 0;
  for (const e of events) {
    track.push(...varLen(e.tick - last), ...e.bytes);
    last = e.tick;
  }
  track.push(...varLen(TPQ), 0xff, 0x2f, 0);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, (TPQ >> 8) & 255, TPQ & 255];
  const len = track.length;
  return Uint8Array.from([
    ...header,
    0x4d,
    0x54,
    0x72,
    0x6b,
    (len >>> 24) & 255,
    (len >> 16) & 255,
    (len >> 8) & 255,
    len & 255,
    ...track,
  ]);
}

const triad = (c: Chord) => [0, c[1] === "maj" ? 4 : 3, c[1] === "dim" ? 6 : 7].map((i) => c[0] + i);
/** The chord's seventh within the key: major seventh on a major chord of the major key's I and IV, else minor. */
const seventh = (c: Chord, mode: KeyMode) =>
  c[0] + (c[1] === "maj" && (mode === "major" ? c[0] === 0 || c[0] === 5 : c[0] === 3 || c[0] === 8) ? 11 : 10);
/** The note of pitch class `pc` within [from, from + 12). */
const place = (pc: number, from: number) => from + ((((pc - from) % 12) + 12) % 12);

export interface Arrangement {
  name: string;
  tonic: number;
  mode: KeyMode;
  bpm: number;
  midi: Uint8Array;
  /** How the piece was made, for the corpus's truth list. */
  recipe: string;
}

/** One arrangement in the key (`tonic` 0 = C), 16 bars of 4/4 plus a final tonic bar. */
export function arrangement(tonic: number, mode: KeyMode, seed: number): Arrangement {
  const r = rng(seed * 7919 + tonic * 31 + (mode === "minor" ? 1 : 0));
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const progressions = mode === "major" ? MAJOR_PROGRESSIONS : MINOR_PROGRESSIONS;
  const pi = Math.floor(r() * progressions.length);
  const prog = progressions[pi];
  const scale = SCALES[mode].map((s) => (s + tonic) % 12);
  const bpm = pick([86, 96, 110, 120, 128, 140, 160, 174]);
  const drums = r() < 0.75;
  const [lead, chords, bass] = [pick(LEADS), pick(CHORDS), pick(BASSES)];
  const notes: Note[] = [];
  const bar = 4 * TPQ;
  const bars = 16;
  const leadLow = 60 + Math.floor(r() * 8);
  let melody = place(tonic, leadLow);
  const comp = r() < 0.5; // comping (chords on beats) or held pads
  const sevenths = r() < 0.5; // four-note chords (the dominant's seventh stays out: V7 is not in the key's scale)
  for (let b = 0; b <= bars; b++) {
    // The last bar is the tonic chord (the progressions that open elsewhere still close on it, 0425).
    const chord: Chord = b === bars ? [0, mode === "major" ? "maj" : "min"] : prog[b % prog.length];
    const t0 = b * bar;
    const tones = triad(chord).map((x) => (x + tonic) % 12);
    const rootBass = place(tones[0], 33);
    const chordNotes = tones.map((pc) => place(pc, 55));
    if (sevenths && b < bars && !(chord[0] === 7 && chord[1] === "maj")) {
      chordNotes.push(place((seventh(chord, mode) + tonic) % 12, 55));
    }
    if (b === bars) {
      for (const p of chordNotes) notes.push({ tick: t0, length: bar, channel: 1, pitch: p, velocity: 70 });
      notes.push({ tick: t0, length: bar, channel: 2, pitch: rootBass, velocity: 95 });
      notes.push({ tick: t0, length: bar, channel: 0, pitch: place(tonic, leadLow), velocity: 90 });
      break;
    }
    for (const p of chordNotes) {
      if (comp) {
        for (let q = 0; q < 4; q++) {
          notes.push({ tick: t0 + q * TPQ, length: TPQ * 0.8, channel: 1, pitch: p, velocity: 60 + (q % 2) * 10 });
        }
      } else notes.push({ tick: t0, length: bar, channel: 1, pitch: p, velocity: 65 });
    }
    // Bass: root on 1 and 3, the fifth or the octave between.
    const bassLine = [rootBass, rootBass + (r() < 0.5 ? 7 : 12), rootBass, place(tones[2], 33)];
    for (let q = 0; q < 4; q++) {
      notes.push({ tick: t0 + q * TPQ, length: TPQ * 0.9, channel: 2, pitch: bassLine[q], velocity: 100 });
    }
    // Melody: eighth notes, a chord tone on each beat, scale steps between; rests now and then.
    for (let e = 0; e < 8; e++) {
      if (r() < 0.2) continue;
      if (e % 2 === 0) {
        const target = tones[Math.floor(r() * 3)];
        melody = nearest(target, melody, leadLow);
      } else {
        const i = scale.indexOf(((melody % 12) + 12) % 12);
        const step = r() < 0.5 ? 1 : -1;
        const next = scale[(((i < 0 ? 0 : i) + step) % 7 + 7) % 7];
        melody = nearest(next, melody, leadLow);
      }
      notes.push({ tick: t0 + (e * TPQ) / 2, length: TPQ / 2 - 20, channel: 0, pitch: melody, velocity: 85 });
    }
    if (drums) {
      for (let q = 0; q < 8; q++) {
        const t = t0 + (q * TPQ) / 2;
        notes.push({ tick: t, length: 60, channel: 9, pitch: 42, velocity: 60 });
        if (q === 0 || q === 5) notes.push({ tick: t, length: 60, channel: 9, pitch: 36, velocity: 110 });
        if (q === 2 || q === 6) notes.push({ tick: t, length: 60, channel: 9, pitch: 38, velocity: 100 });
      }
    }
  }
  const name = `arr-${String(seed).padStart(2, "0")}-${tonic}-${mode}`;
  return {
    name,
    tonic,
    mode,
    bpm,
    midi: smf(notes, [[0, lead], [1, chords], [2, bass]], bpm),
    recipe: `progression ${mode === "major" ? "major" : "minor"} #${pi + 1}, ${bpm} BPM, lead GM ${lead}, ` +
      `chords GM ${chords} (${comp ? "comping" : "held"}), bass GM ${bass}${sevenths ? ", sevenths" : ""}${
        drums ? ", drums" : ""
      }`,
  };
}

/** The note of pitch class `pc` nearest `from`, kept within [low, low + 19]. */
function nearest(pc: number, from: number, low: number): number {
  let best = place(pc, from - 6);
  if (best < low) best += 12;
  if (best > low + 19) best -= 12;
  return best;
}
