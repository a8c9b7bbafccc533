/**
 * The two envelopes tempo and drop detection work from, taken from the mono mix in the same pass:
 *
 * - low band: 4th-order Butterworth low-pass at 150 Hz (kick and sub bass);
 * - mid band: 2nd-order high-pass at 200 Hz then 2nd-order low-pass at 4 kHz (snare body and crack,
 *   without the hats, whose eighths and sixteenths would pull the tempo to double time).
 *
 * Energies are summed over hops of about 5 ms (`hop` samples) and smoothed over about 50 ms.
 * Per hop the onset strength is the rise of each band's windowed RMS beyond a 0.5 dB dead zone (a
 * steady tone wobbles less than that from hop to hop), summed over the two bands: "spectral flux"
 * over two bands. The flux is linear, not in dB, on purpose: loud sections (the body of a track)
 * outweigh a quiet intro, whose hats rising out of silence would otherwise swamp the beat. Every 20 hops (about 100 ms) the low band's mean energy in dB is
 * kept for drop detection. Both series grow with the length (200 + 10 numbers a second: 3 MB an
 * hour), which is the only memory that does.
 */
import type { Biquad } from "./loudness.ts";

const LOW_CUT_HZ = 150;
const MID_LOW_HZ = 200;
const MID_HIGH_HZ = 4000;
export const HOPS_PER_SEGMENT = 20;
const FLOOR_DB = -80;
const WINDOW = 5;
/** Rises under 0.5 dB per hop are the wobble of steady sound, not onsets. */
const DEAD_ZONE = 10 ** (0.5 / 20);

/** RBJ cookbook low- or high-pass biquad (a0 normalised to 1). */
export function passFilter(kind: "low" | "high", f0: number, q: number, sampleRate: number): Biquad {
  const w = (2 * Math.PI * f0) / sampleRate;
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
  /** Onset strength per hop. */
  onsets(): Float32Array;
  /** Hops per second. */
  readonly onsetRate: number;
  /** Low-band level per segment of HOPS_PER_SEGMENT hops, dB of mean square (floored at -80). */
  lowLevels(): Float32Array;
  /** Segments per second. */
  readonly segmentRate: number;
}

const toDb = (meanSquare: number) => Math.max(FLOOR_DB, 10 * Math.log10(meanSquare + 1e-20));

export function createBandEnvelopes(sampleRate: number, channelCount: number): BandEnvelopes {
  // The bands work at half the rate: the mono mix is averaged in pairs of samples (a mild
  // anti-alias; the 4 kHz low-pass takes what folds down from above the new Nyquist frequency).
  const rate = sampleRate / 2;
  const hop = Math.round(rate / 200);
  // Butterworth 4th order as two 2nd-order sections (Q of its pole pairs).
  const low1 = passFilter("low", LOW_CUT_HZ, 0.5411961, rate);
  const low2 = passFilter("low", LOW_CUT_HZ, 1.3065630, rate);
  const midH = passFilter("high", MID_LOW_HZ, Math.SQRT1_2, rate);
  const midL = passFilter("low", MID_HIGH_HZ, Math.SQRT1_2, rate);
  let mono = new Float64Array(4096);
  let odd = false; // a sample waits for its pair
  let held = 0;
  // Direct form I state for the four sections: x1 x2 y1 y2 each.
  const st = new Float64Array(16);
  const onsets = new Growable();
  const levels = new Growable();
  let inHop = 0;
  let lowSum = 0;
  let midSum = 0;
  let prevLow = 0;
  let prevMid = 0;
  let segSum = 0;
  let segHops = 0;

  // Each band's energy smoothed by two sliding boxcars of WINDOW hops (25 ms each, a 50 ms triangle):
  // one boxcar leaves a ±10 % ripple at twice a 45 Hz sub's frequency, two leave ±1 %, under the
  // dead zone, so a steady bass or chord does not flicker from hop to hop.
  const rings = Array.from({ length: 4 }, () => new Float64Array(WINDOW)); // low, low², mid, mid²
  let hops = 0;
  const slide = (ring: Float64Array, value: number) => {
    ring[hops % WINDOW] = value;
    let sum = 0;
    for (let k = 0; k < WINDOW; k++) sum += ring[k];
    return sum;
  };

  function closeHop() {
    const lowE = slide(rings[1], slide(rings[0], lowSum));
    const midE = slide(rings[3], slide(rings[2], midSum));
    hops++;
    const lowRms = Math.sqrt(lowE / (hop * WINDOW * WINDOW));
    const midRms = Math.sqrt(midE / (hop * WINDOW * WINDOW));
    onsets.push(Math.max(0, lowRms - prevLow * DEAD_ZONE) + Math.max(0, midRms - prevMid * DEAD_ZONE));
    prevLow = lowRms;
    prevMid = midRms;
    segSum += lowSum;
    if (++segHops === HOPS_PER_SEGMENT) {
      levels.push(toDb(segSum / (hop * HOPS_PER_SEGMENT)));
      segSum = 0;
      segHops = 0;
    }
    lowSum = 0;
    midSum = 0;
    inHop = 0;
  }

  return {
    onsetRate: rate / hop,
    segmentRate: rate / (hop * HOPS_PER_SEGMENT),
    push(channels, inLength) {
      const left = channels[0];
      const right = channelCount > 1 ? channels[1] : channels[0]; // mono: the one channel twice
      if (mono.length < inLength / 2 + 1) mono = new Float64Array(inLength);
      let length = 0;
      // Locals in the loop, and `+`: a closure variable's value is of no known type to the optimiser,
      // and a local started from it stays boxed, a new heap number for every sample stored (0104).
      let pending = +held, isOdd = odd;
      for (let j = 0; j < inLength; j++) {
        const v = left[j] + right[j];
        if (isOdd) mono[length++] = (pending + v) * 0.25;
        else pending = v;
        isOdd = !isOdd;
      }
      held = pending;
      odd = isOdd;
      // Read by index, not destructured: values from an iterator may be `undefined` to the optimiser,
      // which then boxes every filter state it stores, six heap numbers a sample (~500 MB/s of
      // garbage, and the young generation grows to its limit: 0104).
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      let c1 = st[8], c2 = st[9], c3 = st[10], c4 = st[11], d1 = st[12], d2 = st[13], d3 = st[14], d4 = st[15];
      let i = 0;
      while (i < length) {
        const end = Math.min(length, i + (hop - inHop));
        let ls = 0, ms = 0;
        for (let j = i; j < end; j++) {
          const x = mono[j];
          // Low band: two low-pass sections.
          const y1 = low1.b0 * x + low1.b1 * a1 + low1.b2 * a2 - low1.a1 * a3 - low1.a2 * a4;
          a2 = a1, a1 = x, a4 = a3, a3 = y1;
          const y2 = low2.b0 * y1 + low2.b1 * b1 + low2.b2 * b2 - low2.a1 * b3 - low2.a2 * b4;
          b2 = b1, b1 = y1, b4 = b3, b3 = y2;
          ls += y2 * y2;
          // Mid band: high-pass then low-pass.
          const z1 = midH.b0 * x + midH.b1 * c1 + midH.b2 * c2 - midH.a1 * c3 - midH.a2 * c4;
          c2 = c1, c1 = x, c4 = c3, c3 = z1;
          const z2 = midL.b0 * z1 + midL.b1 * d1 + midL.b2 * d2 - midL.a1 * d3 - midL.a2 * d4;
          d2 = d1, d1 = z1, d4 = d3, d3 = z2;
          ms += z2 * z2;
        }
        lowSum += ls;
        midSum += ms;
        inHop += end - i;
        i = end;
        if (inHop === hop) closeHop();
      }
      st.set([a1, a2, a3, a4, b1, b2, b3, b4, c1, c2, c3, c4, d1, d2, d3, d4]);
    },
    onsets: () => onsets.view(),
    lowLevels: () => levels.view(),
  };
}
