/**
 * The audio fingerprint (issue 25, docs/decisions/0247): the same recording recognised however it
 * was re-encoded. Our own code after the method Lukáš Lalinský published for Chromaprint (a chroma
 * image cut into 32-bit sub-fingerprints by Haar-like filters), with our own untrained filters in
 * the manner of Haitsma & Kalker (2002): each bit is the sign of a difference of energies, so no
 * threshold learnt from data is needed. Nothing of Chromaprint's source or its trained classifiers
 * is used.
 *
 * Fed in the one pass with band-envelopes.ts's half-rate mono mix:
 * - low-passed (4th-order Butterworth at 0.42 of the new rate) and decimated by the smallest whole
 *   factor that brings it to at most 5,512.5 Hz (5,512.5 Hz from 44.1 kHz, 4,800 Hz from 48 kHz);
 * - cut into Hann-windowed frames of 0.3715 s (the first power of two's worth at 5,512.5 Hz, zero
 *   padded to 2048 points at lower rates), one every 0.12383 s (two thirds overlap; the hop is
 *   kept in seconds, so a file resampled from 44.1 to 48 kHz gives frames at the same moments);
 * - per frame a 12-bin chroma: the power of the bins between 55 Hz and 1,760 Hz summed by pitch
 *   class, square-rooted and scaled to unit length (a level change does not show). A frame quieter
 *   than about -70 dBFS in that band is silence: its code is 0, and 0 is never matched;
 * - each sub-fingerprint reads a window of `WINDOW` chroma frames (about 2 s) from its own: 32
 *   signs of differences, short and long, across pitch classes and across time (see `codeOf`).
 *
 * Memory is fixed: the frame buffer, the window and at most `MAX_CODES` codes (the first 120 s from
 * the first sound, as AcoustID keeps; a copy of a track is recognised from its start).
 */
import type { Biquad } from "./loudness.ts";
import { passFilter } from "./band-envelopes.ts";
import { hannWindow, makeFft, realSplitTwiddles } from "./onset-flux.ts";

/** The highest rate frames are read at. */
const TOP_RATE = 5512.5;
const FRAME_SECONDS = 2048 / TOP_RATE;
const FFT_SIZE = 2048;
/** Two thirds overlap. */
export const HOP_SECONDS = FRAME_SECONDS / 3;
const LOWEST_HZ = 55;
const HIGHEST_HZ = 1760;
/** Band mean square (Hann-corrected) under this is silence: about -70 dBFS. */
const SILENT_FRAME = 1e-7;
/** Chroma frames a code reads. */
const WINDOW = 16;
/** Codes kept: 120 s. */
export const MAX_CODES = Math.ceil(120 / HOP_SECONDS);

export interface Fingerprinter {
  /** Mono samples at the rate given to `createFingerprinter`. */
  push(mono: Float64Array, length: number): void;
  /** The sub-fingerprints, one every HOP_SECONDS from the first sound; 0 for silence. */
  finish(): Uint32Array;
}

export function createFingerprinter(inputRate: number): Fingerprinter {
  const factor = Math.max(1, Math.ceil(inputRate / TOP_RATE));
  const rate = inputRate / factor;
  const frameLength = Math.min(FFT_SIZE, Math.round(FRAME_SECONDS * rate));
  const hop = HOP_SECONDS * rate;
  const m = FFT_SIZE / 2;
  const fft = makeFft(m);
  const { twr, twi } = realSplitTwiddles(m);
  const window = hannWindow(frameLength);
  const binHz = rate / FFT_SIZE;
  const lo = Math.max(1, Math.ceil(LOWEST_HZ / binHz));
  const hi = Math.min(m - 1, Math.floor(Math.min(HIGHEST_HZ, 0.45 * rate) / binHz));
  const classOf = new Uint8Array(hi + 1);
  for (let k = lo; k <= hi; k++) {
    // Pitch class, C = 0, of the bin's nearest equal-tempered note (A4 = 440 Hz).
    const semis = Math.round(12 * Math.log2((k * binHz) / 440)) + 9;
    classOf[k] = ((semis % 12) + 12) % 12;
  }
  const cutoff = 0.42 * rate;
  const s1: Biquad = passFilter("low", cutoff, 0.5411961, inputRate);
  const s2: Biquad = passFilter("low", cutoff, 1.306563, inputRate);
  const st = new Float64Array(8);
  // The last `frameLength` decimated samples, as a ring.
  const ring = new Float64Array(frameLength);
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const energy = new Float64Array(12);
  // The last WINDOW chroma frames (12 each) as a ring; silent frames are marked.
  const chroma = new Float64Array(12 * WINDOW);
  const silent = new Uint8Array(WINDOW);
  const codes = new Uint32Array(MAX_CODES);
  let count = 0; // codes written
  let started = false; // a frame with sound has been seen
  let frames = 0; // chroma frames made
  let written = 0; // decimated samples so far
  let nextFrameEnd = frameLength; // the decimated sample count at which the next frame is complete
  let phase = 0;

  function frame() {
    // The ring's oldest sample is at `written % frameLength`.
    const start = written % frameLength;
    for (let j = 0; j < m; j++) {
      const a = 2 * j, b = a + 1;
      re[j] = a < frameLength ? ring[(start + a) % frameLength] * window[a] : 0;
      im[j] = b < frameLength ? ring[(start + b) % frameLength] * window[b] : 0;
    }
    fft(re, im);
    energy.fill(0);
    let total = 0;
    for (let k = lo; k <= hi; k++) {
      const k2 = m - k;
      const er = 0.5 * (re[k] + re[k2]), ei = 0.5 * (im[k] - im[k2]);
      const or = 0.5 * (im[k] + im[k2]), oi = -0.5 * (re[k] - re[k2]);
      const xr = er + or * twr[k] - oi * twi[k];
      const xi = ei + or * twi[k] + oi * twr[k];
      const p = xr * xr + xi * xi;
      energy[classOf[k]] += p;
      total += p;
    }
    const slot = frames % WINDOW;
    // Parseval with the Hann window's mean square (3/8).
    const quiet = (2 * total) / (frameLength * frameLength * 0.375) < SILENT_FRAME;
    silent[slot] = quiet ? 1 : 0;
    let norm = 0;
    for (let i = 0; i < 12; i++) norm += energy[i];
    norm = Math.sqrt(norm);
    for (let i = 0; i < 12; i++) chroma[slot * 12 + i] = quiet ? 0 : Math.sqrt(energy[i]) / norm;
    frames++;
    if (frames < WINDOW) return;
    // The code of the window's first frame.
    const first = frames % WINDOW;
    if (!started && silent[first]) return;
    started = true;
    if (count < MAX_CODES) codes[count++] = silent[first] ? 0 : codeOf(chroma, first);
  }

  return {
    push(mono, length) {
      // Full: the rest of a long track costs nothing here.
      if (count >= MAX_CODES) return;
      const c0 = s1.b0, c1 = s1.b1, c2 = s1.b2, c3 = s1.a1, c4 = s1.a2;
      const d0 = s2.b0, d1 = s2.b1, d2 = s2.b2, d3 = s2.a1, d4 = s2.a2;
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      let p = phase | 0;
      const f = factor | 0, len = frameLength | 0;
      for (let j = 0; j < length; j++) {
        const x = mono[j];
        const y1 = c0 * x + c1 * a1 + c2 * a2 - c3 * a3 - c4 * a4;
        a2 = a1, a1 = x, a4 = a3, a3 = y1;
        const y = d0 * y1 + d1 * b1 + d2 * b2 - d3 * b3 - d4 * b4;
        b2 = b1, b1 = y1, b4 = b3, b3 = y;
        if (++p < f) continue;
        p = 0;
        ring[written % len] = y;
        written++;
        if (written >= nextFrameEnd) {
          frame();
          nextFrameEnd += hop;
        }
      }
      phase = p;
      st[0] = a1, st[1] = a2, st[2] = a3, st[3] = a4, st[4] = b1, st[5] = b2, st[6] = b3, st[7] = b4;
    },
    finish() {
      return codes.slice(0, count);
    },
  };
}

/**
 * The 32 bits of the code whose window starts at slot `first` of the ring (frames first … first+15,
 * wrapping). With A(j0, j1, i) the sum of pitch class i over frames j0 … j1-1 of the window:
 * - bits 0–11, the shape of the chroma now: A(0,4,i) > A(0,4,i+1);
 * - bits 12–23, its change from one frame to the next two: A(0,2,i) > A(2,4,i);
 * - bits 24–27, change over a second in groups of three classes: ΣA(0,8,g) > ΣA(8,16,g);
 * - bits 28–31, the same change compared between neighbouring groups (a checkerboard).
 */
function codeOf(chroma: Float64Array, first: number): number {
  const a = (j0: number, j1: number, i: number) => {
    let s = 0;
    const c = ((i % 12) + 12) % 12;
    for (let j = j0; j < j1; j++) s += chroma[((first + j) % WINDOW) * 12 + c];
    return s;
  };
  let code = 0;
  for (let i = 0; i < 12; i++) if (a(0, 4, i) > a(0, 4, i + 1)) code |= 1 << i;
  for (let i = 0; i < 12; i++) if (a(0, 2, i) > a(2, 4, i)) code |= 1 << (12 + i);
  const change = new Float64Array(4);
  for (let g = 0; g < 4; g++) {
    for (let i = 3 * g; i < 3 * g + 3; i++) change[g] += a(0, 8, i) - a(8, 16, i);
    if (change[g] > 0) code |= 1 << (24 + g);
  }
  for (let g = 0; g < 4; g++) if (change[g] > change[(g + 1) % 4]) code |= 1 << (28 + g);
  return code >>> 0;
}

/** Bits set in a 32-bit number. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The bit error rate of `b` laid `offset` codes after `a` (b[j] against a[j + offset]), over the
 * codes both have with sound; and how many such codes there were.
 */
export function bitErrorRate(a: Uint32Array, b: Uint32Array, offset: number): { ber: number; compared: number } {
  let errors = 0, compared = 0;
  const from = Math.max(0, -offset), to = Math.min(b.length, a.length - offset);
  for (let j = from; j < to; j++) {
    const x = a[j + offset], y = b[j];
    if (x === 0 || y === 0) continue;
    errors += popcount(x ^ y);
    compared++;
  }
  return { ber: compared === 0 ? 1 : errors / (32 * compared), compared };
}

/** Bump when a change here changes the codes: stored fingerprints of another version are not compared. */
export const FINGERPRINT_VERSION = 1;
/**
 * Two fingerprints are of one recording when, laid at their best offset, at most this share of the
 * bits differ (docs/decisions/0247: re-encodes measured at 0–6 %, another groove in the same key and
 * tempo at 25 % or more at every offset, unrelated fixtures 22 % or more)…
 */
export const MATCH_MAX_BER = 0.15;
/** …over at least this many codes with sound on both sides (7.4 s)… */
export const MATCH_MIN_CODES = 60;
/** …and at least this share of the shorter one's codes with sound (not just a shared intro). */
export const MATCH_MIN_SHARE = 0.5;
/**
 * One code in this many is a segment of the index, on the stored side and the query's alike: which
 * ones is decided by the code's hash itself (`isSegment`), so a code that survived a re-encode is
 * chosen on both sides, and a lookup probes about 60 hashes for 120 s instead of 969.
 */
export const SEGMENT_EVERY = 16;

/**
 * The segment hash of a sub-fingerprint: its 24 upper bits (the lowest eight, the chroma's shape
 * within C … G, flip most under resampling; measured on the fixtures).
 */
export const segmentHash = (code: number): number => code >>> 8;

/**
 * Whether a code with sound is a segment: its hash mixed (Fibonacci hashing) so that all 24 bits
 * decide, not a few pitch classes that a track in one key may hold steady.
 */
export const isSegment = (code: number): boolean =>
  code !== 0 && Math.imul(segmentHash(code), 0x9e3779b1) >>> 0 < 2 ** 32 / SEGMENT_EVERY;

/** The positions of a fingerprint that are segments (stored in the index, and looked up). */
export function indexedPositions(codes: Uint32Array): number[] {
  const out: number[] = [];
  for (let p = 0; p < codes.length; p++) if (isSegment(codes[p])) out.push(p);
  return out;
}

/** Codes with sound. */
function sounding(codes: Uint32Array): number {
  let n = 0;
  for (const c of codes) if (c !== 0) n++;
  return n;
}

/**
 * Whether `query` is the recording of `stored`, tried at offsets `near` - 2 … `near` + 2 (`near`: the
 * offset the segment index voted for, stored position minus query position). The best bit error rate
 * when it is a match, else null.
 */
export function matchAt(stored: Uint32Array, query: Uint32Array, near: number): number | null {
  const needed = Math.max(MATCH_MIN_CODES, MATCH_MIN_SHARE * Math.min(sounding(stored), sounding(query)));
  let best: number | null = null;
  for (let offset = near - 2; offset <= near + 2; offset++) {
    const { ber, compared } = bitErrorRate(stored, query, offset);
    if (compared >= needed && ber <= MATCH_MAX_BER && (best === null || ber < best)) best = ber;
  }
  return best;
}

/** Little-endian bytes of the codes, as stored. */
export function codesToBytes(codes: Uint32Array): Uint8Array {
  const out = new Uint8Array(codes.length * 4);
  const v = new DataView(out.buffer);
  for (let i = 0; i < codes.length; i++) v.setUint32(4 * i, codes[i], true);
  return out;
}

export function codesFromBytes(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.byteLength >> 2);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = v.getUint32(4 * i, true);
  return out;
}
