/**
 * The two envelopes tempo and drop detection work from, taken from the mono mix in the same pass (the
 * mix is also handed to the key's chromagram, key.ts):
 *
 * - onset strength for tempo: full-band log-spectral flux of the mix (onset-flux.ts, 0220), hats
 *   included;
 * - low band: 4th-order Butterworth low-pass at 150 Hz (kick and sub bass). Its energy is summed over
 *   hops of about 5 ms (`hop` samples) and every 5 hops (about 25 ms, a period of 40 Hz) its mean in
 *   dB is kept for drop detection (drop.ts, 0214: fine enough to tell the kick before the bass from
 *   the bass).
 *
 * Both series grow with the length (100 + 40 numbers a second: 2 MB an hour as float32), which is
 * the only memory that does.
 */
import { type Biquad, designFrequency } from "./loudness.ts";
import { createOnsetFlux } from "./onset-flux.ts";

const LOW_CUT_HZ = 150;
export const HOPS_PER_SEGMENT = 5;
const FLOOR_DB = -80;

/**
 * RBJ cookbook low- or high-pass biquad (a0 normalised to 1), its corner held below the Nyquist
 * frequency of the rate it runs at (`designFrequency`): a corner above it would give an unstable
 * filter, not a missing band.
 */
export function passFilter(kind: "low" | "high", f0: number, q: number, sampleRate: number): Biquad {
  const w = (2 * Math.PI * designFrequency(f0, sampleRate)) / sampleRate;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  const b1 = kind === "low" ? 1 - cos : -(1 + cos);
  const b0 = kind === "low" ? (1 - cos) / 2 : (1 + cos) / 2;
  return { b0: b0 / a0, b1: b1 / a0, b2: b0 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

class Growable {
  data = new Float32Array(4096);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
  view() {
    return this.data.subarray(0, this.length);
  }
}

export interface BandEnvelopes {
  push(channels: Float32Array[], length: number): void;
  /** Onset strength per onset frame (onset-flux.ts). */
  onsets(): Float32Array;
  /** Onset frames per second. */
  readonly onsetRate: number;
  /** Low-band level per segment of HOPS_PER_SEGMENT hops, dB of mean square (floored at -80). */
  lowLevels(): Float32Array;
  /** Segments per second. */
  readonly segmentRate: number;
}

const toDb = (meanSquare: number) => Math.max(FLOOR_DB, 10 * Math.log10(meanSquare + 1e-20));

/**
 * `alsoMono`, when given, receives the same half-rate mono mix as the onset flux, chunk by chunk (the
 * key's chromagram, key.ts): the mix is made once for all of them.
 */
export function createBandEnvelopes(
  sampleRate: number,
  channelCount: number,
  alsoMono?: (mono: Float64Array, length: number) => void,
): BandEnvelopes {
  // The bands work at half the rate: the mono mix is averaged in pairs of samples (a mild
  // anti-alias; what folds down from above the new Nyquist frequency still marks an onset).
  const rate = sampleRate / 2;
  const hop = Math.round(rate / 200);
  // Butterworth 4th order as two 2nd-order sections (Q of its pole pairs).
  const low1 = passFilter("low", LOW_CUT_HZ, 0.5411961, rate);
  const low2 = passFilter("low", LOW_CUT_HZ, 1.3065630, rate);
  const flux = createOnsetFlux(rate);
  let mono = new Float64Array(4096);
  let odd = false; // a sample waits for its pair
  let held = 0;
  // Direct form I state for the two sections: x1 x2 y1 y2 each.
  const st = new Float64Array(8);
  const levels = new Growable();
  let inHop = 0;
  let lowSum = 0;
  let segSum = 0;
  let segHops = 0;

  function closeHop() {
    segSum += lowSum;
    if (++segHops === HOPS_PER_SEGMENT) {
      levels.push(toDb(segSum / (hop * HOPS_PER_SEGMENT)));
      segSum = 0;
      segHops = 0;
    }
    lowSum = 0;
    inHop = 0;
  }

  return {
    onsetRate: flux.rate,
    segmentRate: rate / (hop * HOPS_PER_SEGMENT),
    push(channels, inLength) {
      const left = channels[0];
      const right = channelCount > 1 ? channels[1] : channels[0]; // mono: the one channel twice
      if (mono.length < inLength / 2 + 1) mono = new Float64Array(inLength);
      const out = mono;
      let length = 0;
      // Locals in the loop, and `+`: a closure variable's value is of no known type to the optimiser,
      // and a local started from it stays boxed, a new heap number for every sample stored (0104).
      let pending = +held, j = 0;
      if (odd && inLength > 0) {
        out[length++] = (pending + (left[0] + right[0])) * 0.25;
        j = 1;
      }
      // Whole pairs, then a first half left waiting.
      for (; j + 1 < inLength; j += 2) out[length++] = ((left[j] + right[j]) + (left[j + 1] + right[j + 1])) * 0.25;
      if (j < inLength) {
        pending = left[j] + right[j];
        odd = true;
      } else if (inLength > 0) odd = false;
      held = pending;
      flux.push(out, length);
      alsoMono?.(out, length);
      // Read by index, not destructured: values from an iterator may be `undefined` to the optimiser,
      // which then boxes every filter state it stores, six heap numbers a sample (~500 MB/s of
      // garbage, and the young generation grows to its limit: 0104).
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      const c0 = low1.b0, c1 = low1.b1, c2 = low1.b2, c3 = low1.a1, c4 = low1.a2;
      const d0 = low2.b0, d1 = low2.b1, d2 = low2.b2, d3 = low2.a1, d4 = low2.a2;
      let i = 0;
      while (i < length) {
        const end = Math.min(length, i + (hop - inHop));
        let ls = 0;
        for (let j = i; j < end; j++) {
          const x = out[j];
          // Low band: two low-pass sections.
          const y1 = c0 * x + c1 * a1 + c2 * a2 - c3 * a3 - c4 * a4;
          a2 = a1, a1 = x, a4 = a3, a3 = y1;
          const y2 = d0 * y1 + d1 * b1 + d2 * b2 - d3 * b3 - d4 * b4;
          b2 = b1, b1 = y1, b4 = b3, b3 = y2;
          ls += y2 * y2;
        }
        lowSum += ls;
        inHop += end - i;
        i = end;
        if (inHop === hop) closeHop();
      }
      st[0] = a1, st[1] = a2, st[2] = a3, st[3] = a4, st[4] = b1, st[5] = b2, st[6] = b3, st[7] = b4;
    },
    onsets: () => flux.onsets(),
    lowLevels: () => levels.view(),
  };
}
