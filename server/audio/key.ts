/**
 * The musical key (docs/decisions/0215, 0410), read from key-chroma.ts's harmonic pitch-class
 * profiles: the segments' 10-cent histograms are folded into 12 pitch classes around the track's own
 * tuning (the circular mean within a semitone); the whole track's chroma (their duration-weighted
 * sum, plus `BASS_WEIGHT` × the bass view's: 0, as measured), scaled to a maximum of 1 with bins under
 * `PCP_THRESHOLD` set to 0, is correlated (Pearson) with the 24 rotations of the chosen profile
 * (`PROFILE`: Sha'ath's, chosen on the corpus, 0412); the best key
 * wins. The confidence (`keyConfidence`) is that correlation times the tonal share; at or above
 * `KEY_SURE_CONFIDENCE` the desk shows the key as sure, below it with «?». Null when too little was
 * tonal (`readKey`).
 */
import { camelotOf, type KeyMode, keyName } from "../../domain/musical-key.ts";
import { BINS, type ChromaSegment, createChromaFrontEnd, FINE } from "./key-chroma.ts";

/** A key profile: weights of the 12 pitch classes above the tonic, major and minor. */
export interface KeyProfile {
  major: number[];
  minor: number[];
}

/**
 * The published profiles measured on the bench's corpus (bench/key-corpus.md, docs/decisions/0410).
 * - `krumhansl`: Krumhansl & Kessler (1982), probe-tone ratings;
 * - `temperley`: Temperley (1999), "What's key for key?";
 * - `temperley2005`: Temperley (2005/2007), the Kostka–Payne corpus's pitch-class probabilities;
 * - `edma`: Faraldo, Gómez, Jordà & Herrera (2016), "Key Estimation in Electronic Dance Music"
 *   (ECIR), the profiles derived from EDM annotated by key;
 * - `edmm`: the same paper's manually built EDM profiles;
 * - `shaath`: Ibrahim Sha'ath's (KeyFinder; 2011, "Estimation of key in digital music recordings"),
 *   a Krumhansl–Kessler variant, one of the profiles essentia's Key offers (values as published in
 *   Faraldo's key-estimation material).
 */
export const KEY_PROFILES: Record<string, KeyProfile> = {
  krumhansl: {
    major: [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88],
    minor: [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17],
  },
  temperley: {
    major: [5.0, 2.0, 3.5, 2.0, 4.5, 4.0, 2.0, 4.5, 2.0, 3.5, 1.5, 4.0],
    minor: [5.0, 2.0, 3.5, 4.5, 2.0, 4.0, 2.0, 4.5, 3.5, 2.0, 1.5, 4.0],
  },
  temperley2005: {
    major: [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4],
    minor: [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33],
  },
  edma: {
    major: [
      0.16519551,
      0.04749026,
      0.08293076,
      0.06687112,
      0.09994645,
      0.09274123,
      0.05294487,
      0.13159476,
      0.05218986,
      0.07443653,
      0.06940723,
      0.0642515,
    ],
    minor: [
      0.17235348,
      0.05336489,
      0.0761009,
      0.10043649,
      0.05621498,
      0.08527853,
      0.0497915,
      0.13451001,
      0.07458916,
      0.05003023,
      0.09187879,
      0.05545106,
    ],
  },
  shaath: {
    major: [6.6, 2.0, 3.5, 2.3, 4.6, 4.0, 2.5, 5.2, 2.4, 3.7, 2.3, 3.4],
    minor: [6.5, 2.7, 3.5, 5.4, 2.6, 3.5, 2.5, 5.2, 4.0, 2.7, 4.3, 3.2],
  },
  edmm: {
    major: [7.23, 2.24, 3.25, 2.36, 4.38, 3.86, 2.41, 5.48, 2.47, 3.63, 2.31, 3.19],
    minor: [7.01, 2.63, 3.42, 5.21, 2.55, 3.67, 2.37, 4.89, 3.87, 2.58, 3.46, 3.15],
  },
};

/**
 * The key is null when tonal frames are fewer than this share of the frames with sound (a frame is
 * tonal when its peaks hold at least key-chroma.ts's `TONAL_FRAME_SHARE` of its energy).
 */
export const MIN_TONAL_FRAMES = 0.2;
/** Or when the best profile's correlation is under this (no profile fits). */
export const MIN_CORRELATION = 0.5;
/** Or when the confidence is under this (noise: a few random peaks that happen to correlate). */
export const MIN_CONFIDENCE = 0.25;
/**
 * Or when fewer than `MIN_PITCH_CLASSES` pitch classes hold `PITCH_CLASS_SHARE` of the chroma each:
 * one or two notes (a test tone, a kick tuned to a note, a bass on root and fifth) make no key.
 */
export const MIN_PITCH_CLASSES = 3;
export const PITCH_CLASS_SHARE = 0.05;

/** The profile used, chosen on the corpus (0410, 0412). `let` for the bench's measurements (`setKeyOptions`). */
export let PROFILE = "shaath";
/** Weight of the bass view's chroma added to the treble view's, per segment (0410). */
export let BASS_WEIGHT = 0;
/** For the bench's measurements only: another profile or bass weight. */
export function setKeyOptions(
  o: { profile?: string; bassWeight?: number; pcpThreshold?: number; chordWeight?: number; minorPrior?: number },
) {
  if (o.profile) PROFILE = o.profile;
  if (o.chordWeight !== undefined) CHORD_WEIGHT = o.chordWeight;
  if (o.minorPrior !== undefined) MINOR_PRIOR = o.minorPrior;
  if (o.pcpThreshold !== undefined) PCP_THRESHOLD = o.pcpThreshold;
  if (o.bassWeight !== undefined) BASS_WEIGHT = o.bassWeight;
}

export interface KeyReading {
  key: string | null;
  camelot: string | null;
  /** 0–1, three decimals; null when nothing tonal was heard (silence, drums only). */
  confidence: number | null;
}

export interface KeyChroma {
  /** Mono samples at the rate given to `createKeyChroma`. */
  push(mono: Float64Array, length: number): void;
  finish(): KeyReading;
  /** What `finish` reads the key from. */
  summary(): ChromaSummary;
}

export interface ChromaSummary {
  /** 12 pitch classes, C first, summing to 1 (all 0 when there was nothing): the whole track. */
  chroma: Float64Array;
  /**
   * The same without harmonic weighting (the peaks' own pitches), for counting the notes heard:
   * harmonic weighting gives one tone a fifth and a third below. Absent: `chroma` is used.
   */
  plain?: Float64Array;
  /** Frames with sound, and those of them that were tonal. */
  frames: number;
  tonalFrames: number;
  /**
   * The segments (key-chroma.ts), folded with the track's tuning: treble and bass chroma (each summing
   * to 1, or all 0) and frames with sound. Without them the whole-track chroma is the one segment.
   */
  segments?: { chroma: Float64Array; bass: Float64Array; frames: number }[];
  /**
   * The chords heard (`chordShares`): for each of the 24 triads (major on C … B, then minor), the
   * share of the frames with sound whose chroma is nearest that triad. Absent: no chord term.
   */
  chords?: Float64Array;
}

export function createKeyChroma(inputRate: number): KeyChroma {
  const front = createChromaFrontEnd(inputRate);
  const summary = () => summarise(front.segments(), front.frames());
  return { push: front.push, summary, finish: () => readKey(summary()) };
}

/** The offset of the semitone centres from A = 440, in fine bins (−5 … 5): the circular mean. */
function tuningOffset(total: Float64Array): number {
  let s = 0, c = 0;
  for (let i = 0; i < total.length; i++) {
    const angle = (2 * Math.PI * (i % FINE)) / FINE;
    s += total[i] * Math.sin(angle);
    c += total[i] * Math.cos(angle);
  }
  return s === 0 && c === 0 ? 0 : (Math.atan2(s, c) / (2 * Math.PI)) * FINE;
}

/** Folds a 10-cent histogram into 12 pitch classes centred `offset` bins off A = 440, summing to 1. */
function fold(fine: ArrayLike<number>, offset: number): Float64Array {
  const chroma = new Float64Array(12);
  for (let i = 0; i < fine.length; i++) {
    const pos = (i - offset) / FINE;
    const low = Math.floor(pos), f = pos - low;
    chroma[((low % 12) + 12) % 12] += fine[i] * (1 - f);
    chroma[(((low + 1) % 12) + 12) % 12] += fine[i] * f;
  }
  const sum = chroma.reduce((a, b) => a + b, 0);
  if (sum > 0) { for (let i = 0; i < 12; i++) chroma[i] /= sum; }
  return chroma;
}

/** The segments (and frames) folded around the track's own tuning (estimated from all of them). */
export function summarise(segments: ChromaSegment[], frameChroma?: Float32Array): ChromaSummary {
  const total = new Float64Array(BINS);
  const plain = new Float64Array(BINS);
  let frames = 0, tonalFrames = 0;
  for (const s of segments) {
    for (let i = 0; i < BINS; i++) {
      total[i] += s.treble[i];
      plain[i] += s.plain[i];
    }
    frames += s.frames;
    tonalFrames += s.tonalFrames;
  }
  const offset = tuningOffset(total);
  return {
    chroma: fold(total, offset),
    plain: fold(plain, offset),
    frames,
    tonalFrames,
    segments: segments.map((s) => ({ chroma: fold(s.treble, offset), bass: fold(s.bass, offset), frames: s.frames })),
    chords: frameChroma && frameChroma.length ? chordShares(frameChroma, offset) : undefined,
  };
}

/** Frames averaged for each chord reading: about 2.2 s, a bar at most tempos (0425). */
export const CHORD_FRAMES = 3;

/**
 * The chords heard: each frame's chroma (folded around the tuning), averaged over `CHORD_FRAMES`
 * frames centred on it, is matched (cosine) with the 24 triads; the share of the frames each triad
 * wins. A tonic triad heard as a chord says more of the key than its notes spread over other chords
 * (0425): a minor loop i–VII–VI–VII holds every note of the relative major's tonic triad, never the
 * chord.
 */
export function chordShares(frames: Float32Array, offset: number): Float64Array {
  const n = frames.length / BINS;
  const folded: Float64Array[] = [];
  for (let f = 0; f < n; f++) folded.push(fold(frames.subarray(f * BINS, (f + 1) * BINS), offset));
  const shares = new Float64Array(24);
  const half = Math.floor(CHORD_FRAMES / 2);
  const c = new Float64Array(12);
  for (let f = 0; f < n; f++) {
    c.fill(0);
    for (let g = Math.max(0, f - half); g <= Math.min(n - 1, f + half); g++) {
      for (let i = 0; i < 12; i++) c[i] += folded[g][i];
    }
    let best = -1, bestScore = 0;
    for (let t = 0; t < 24; t++) {
      const root = t % 12, third = t < 12 ? 4 : 3;
      // The cosine with a triad template (three ones) up to the common factor 1/√3·|c|.
      const score = c[root] + c[(root + third) % 12] + c[(root + 7) % 12];
      if (score > bestScore) {
        bestScore = score;
        best = t;
      }
    }
    if (best >= 0) shares[best] += 1 / n;
  }
  return shares;
}

/** Chroma bins under this share of the largest are set to 0 before the correlation (0412). */
export let PCP_THRESHOLD = 0.2;

/** The chroma scaled to a maximum of 1, bins under `PCP_THRESHOLD` set to 0. */
function thresholded(chroma: ArrayLike<number>): Float64Array {
  let max = 0;
  for (let i = 0; i < 12; i++) max = Math.max(max, chroma[i]);
  return Float64Array.from({ length: 12 }, (_, i) => {
    const v = max > 0 ? chroma[i] / max : 0;
    return v < PCP_THRESHOLD ? 0 : v;
  });
}

function pearson(x: ArrayLike<number>, profile: number[], shift: number): number {
  let mx = 0, my = 0;
  for (let i = 0; i < 12; i++) {
    mx += x[i];
    my += profile[i];
  }
  mx /= 12;
  my /= 12;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < 12; i++) {
    const dx = x[(i + shift) % 12] - mx, dy = profile[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

export interface KeyScore {
  tonic: number;
  mode: KeyMode;
  correlation: number;
}

/** The 24 keys' correlations with a 12-bin chroma (C first), best first. */
export function scoreKeys(chroma: ArrayLike<number>, profile = KEY_PROFILES[PROFILE]): KeyScore[] {
  const scores: KeyScore[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    scores.push({ tonic, mode: "major", correlation: pearson(chroma, profile.major, tonic) });
    scores.push({ tonic, mode: "minor", correlation: pearson(chroma, profile.minor, tonic) });
  }
  return scores.sort((a, b) => b.correlation - a.correlation);
}

/** Weight of the tonic triad's share of the chords heard, added to a key's correlation (0425). */
export let CHORD_WEIGHT = 0.2;
/**
 * Added to every minor key's correlation: drum and bass, like most electronic dance music, is
 * mostly minor, and its minor loops (i–VI–III–VII, i–VII–VI–VII) hold the relative major's notes;
 * a near tie between a key and its relative goes to the minor one (0425, after Faraldo et al. 2016).
 */
export let MINOR_PRIOR = 0.03;

/**
 * The keys ordered by their correlation plus `CHORD_WEIGHT` × their tonic triad's share of the
 * chords heard (when known) plus `MINOR_PRIOR` for minor keys; each keeps its own correlation.
 */
export function rankKeys(scores: KeyScore[], chords?: Float64Array): KeyScore[] {
  const rank = (s: KeyScore) =>
    s.correlation + (chords ? CHORD_WEIGHT * chords[s.tonic + (s.mode === "minor" ? 12 : 0)] : 0) +
    (s.mode === "minor" ? MINOR_PRIOR : 0);
  return [...scores].sort((a, b) => rank(b) - rank(a));
}

export interface CombinedKey {
  best: KeyScore;
  /** Share of the duration whose own segment estimate is the best key (0–1). */
  agreement: number;
  /** The best key's lead over the second, in correlation. */
  margin: number;
}

/**
 * The key from the whole track's chroma (plus `BASS_WEIGHT` × its bass chroma), and how the segments
 * agree with it: the share of the duration (frames with sound) whose own segment estimate is that key.
 * The whole-track chroma is the segments' duration-weighted sum; reading the key from it measured
 * better on the corpus than averaging the segments' correlations (0410).
 */
export function combineSegments(summary: ChromaSummary): CombinedKey {
  const segments = summary.segments ?? [{ chroma: summary.chroma, bass: new Float64Array(12), frames: 1 }];
  const bass = new Float64Array(12);
  let weight = 0;
  for (const s of segments) {
    for (let i = 0; i < 12; i++) bass[i] += s.frames * s.bass[i];
    weight += s.frames;
  }
  const mix = (chroma: ArrayLike<number>, b: ArrayLike<number>, scale: number) =>
    thresholded(Float64Array.from({ length: 12 }, (_, i) => chroma[i] + BASS_WEIGHT * b[i] * scale));
  const [best, second] = rankKeys(scoreKeys(mix(summary.chroma, bass, weight ? 1 / weight : 0)), summary.chords);
  let agreeing = 0;
  for (const s of segments) {
    const [own] = scoreKeys(mix(s.chroma, s.bass, 1));
    if (s.frames > 0 && own.tonic === best.tonic && own.mode === best.mode) agreeing += s.frames;
  }
  return { best, agreement: weight ? agreeing / weight : 0, margin: best.correlation - second.correlation };
}

/**
 * The key of a summarised track. Null (all three fields) when no frame had sound, when fewer than
 * `MIN_TONAL_FRAMES` of the frames with sound were tonal (drums only), when fewer than three pitch
 * classes were heard (a lone tone), when the best correlation is under `MIN_CORRELATION` or the
 * confidence (`keyConfidence`) under `MIN_CONFIDENCE`.
 */
export function readKey(summary: ChromaSummary): KeyReading {
  const none = { key: null, camelot: null, confidence: null };
  if (summary.frames === 0 || summary.tonalFrames < MIN_TONAL_FRAMES * summary.frames) return none;
  if ((summary.plain ?? summary.chroma).filter((x) => x >= PITCH_CLASS_SHARE).length < MIN_PITCH_CLASSES) return none;
  const combined = combineSegments(summary);
  const { best } = combined;
  const confidence = keyConfidence(combined, summary.tonalFrames / summary.frames);
  if (best.correlation < MIN_CORRELATION || confidence < MIN_CONFIDENCE) return none;
  return { key: keyName(best.tonic, best.mode), camelot: camelotOf(best.tonic, best.mode), confidence };
}

/**
 * How sure the key is, 0–1 (three decimals): the best correlation times the share of tonal frames
 * (each capped at 1). Measured on the corpus (0410), the correlation separates right readings from
 * wrong ones better than the segments' agreement or the lead over the second key, alone or combined.
 */
export function keyConfidence(c: CombinedKey, tonalShare: number): number {
  const x = Math.min(1, c.best.correlation) * Math.min(1, tonalShare);
  return Math.round(Math.max(0, x) * 1000) / 1000;
}

/** At or above this confidence the report shows the key as sure; below it, with «?» (issue 38). */
export { KEY_SURE_CONFIDENCE } from "../../domain/musical-key.ts";
