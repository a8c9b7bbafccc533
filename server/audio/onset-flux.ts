/**
 * Onset strength for tempo: full-band log-spectral flux (docs/decisions/0220).
 *
 * The mono mix (band-envelopes.ts hands over its half-rate mix, averaged in pairs once more when
 * above 16 kHz) is cut into Hann-windowed frames of about 23 ms (a power of two: 256 samples at
 * 11.025/12 kHz, 128 at 5.5 kHz), one every 10 ms. Per
 * frame each bin's magnitude is compressed as log(1 + γ·|X|) and the onset strength is the sum of
 * the bins' rises over the previous frame (falls count nothing): every drum counts, the hats on the
 * eighths as much as kick and snare, which is what lets the tempo tell the beat from 1.5 or 2.5
 * beats of a two-step groove. The frame size follows the sample rate, so any rate the decoder gives
 * works alike. The series is 100 numbers a second (240 KB an hour): the only memory that grows.
 */

/** Onset frames a second. */
const FRAMES_PER_SECOND = 100;
const FRAME_SECONDS = 0.023;
/**
 * Log compression, log(1 + γ·|X|) (a full-scale sine's bin is about 100): quiet detail counts, but
 * the faint skirts of a loud tone (whose level swings as its phase slides under the window) stay
 * near zero.
 */
const GAMMA = 10;
/**
 * A bin must rise more than this (about 0.5 dB, in the log's nepers) to count: a steady tone's bins
 * wobble by less from frame to frame as its phase slides under the window, and would otherwise
 * make a periodic envelope out of nothing.
 */
/**
 * Bins below this count nothing: a frame of 23 ms is shorter than a period of a sub bass, whose level
 * in the lowest bins then swings from frame to frame with its phase. Kicks still mark their onset
 * in the bins above (their attack is broadband).
 */
const LOWEST_HZ = 150;
const DEAD_ZONE = Math.log(10 ** (0.5 / 20));

export interface OnsetFlux {
  /** Mono samples at the rate given to `createOnsetFlux`. */
  push(mono: Float64Array, length: number): void;
  onsets(): Float32Array;
  /** Onset frames per second. */
  readonly rate: number;
}

/** A Hann window of `n` samples (the frames of the onset envelope, the key's chromagram, the fingerprint). */
export function hannWindow(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

/**
 * The twiddles that split one complex FFT of `m` points (even samples as the real part, odd as the
 * imaginary) into the spectrum of a real frame of `2m`: `twr[k] + i·twi[k] = e^(−iπk/m)`.
 */
export function realSplitTwiddles(m: number): { twr: Float64Array; twi: Float64Array } {
  const twr = new Float64Array(m);
  const twi = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    twr[k] = Math.cos((Math.PI * k) / m);
    twi[k] = -Math.sin((Math.PI * k) / m);
  }
  return { twr, twi };
}

/** In-place radix-2 complex FFT of `n` points (re, im), with tables made once per size. */
export function makeFft(n: number) {
  const levels = Math.round(Math.log2(n));
  // The bit-reversal permutation, as the pairs it swaps.
  const swaps: number[] = [];
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0; b < levels; b++) r |= ((i >>> b) & 1) << (levels - 1 - b);
    if (r > i) swaps.push(i, r);
  }
  const swap = Int32Array.from(swaps);
  // Each stage's twiddles in a run of their own, e^(−2πi·j/n) at j = k·n/size for stage `size` at
  // [size/2, size): read in order, no stride.
  const cos = new Float64Array(Math.max(2, n));
  const sin = new Float64Array(Math.max(2, n));
  for (let size = 2; size <= n; size *= 2) {
    for (let k = 0; k < size / 2; k++) {
      const i = k * (n / size);
      cos[size / 2 + k] = Math.cos((2 * Math.PI * i) / n);
      sin[size / 2 + k] = -Math.sin((2 * Math.PI * i) / n);
    }
  }
  return (re: Float64Array, im: Float64Array) => {
    for (let s = 0; s < swap.length; s += 2) {
      const i = swap[s], j = swap[s + 1];
      const tr = re[i];
      re[i] = re[j];
      re[j] = tr;
      const ti = im[i];
      im[i] = im[j];
      im[j] = ti;
    }
    for (let size = 2; size <= n; size *= 2) {
      const half = size / 2;
      for (let start = 0; start < n; start += size) {
        // k = 0: the twiddle is 1 (multiplying by it and its −0 changes no value, at most a zero's sign).
        const yr = re[start + half], yi = im[start + half];
        re[start + half] = re[start] - yr;
        im[start + half] = im[start] - yi;
        re[start] += yr;
        im[start] += yi;
        for (let k = 1; k < half; k++) {
          const wr = cos[half + k], wi = sin[half + k];
          const a = start + k, b = a + half;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  };
}

export function createOnsetFlux(inputRate: number): OnsetFlux {
  // Above 16 kHz the input is averaged in pairs once more (what folds down still marks an onset):
  // half the FFT work for the same 43 Hz bins.
  const pairs = inputRate > 16000;
  const sampleRate = pairs ? inputRate / 2 : inputRate;
  let half = new Float64Array(0);
  let held = 0;
  let odd = false;
  const size = 2 ** Math.max(5, Math.round(Math.log2(FRAME_SECONDS * sampleRate)));
  const hop = Math.max(1, Math.round(sampleRate / FRAMES_PER_SECOND));
  const m = size / 2; // a real frame of `size` is one complex FFT of `size / 2` points
  const lowest = Math.min(m, Math.ceil((LOWEST_HZ * size) / sampleRate));
  const fft = makeFft(m);
  const window = hannWindow(size);
  const { twr, twi } = realSplitTwiddles(m);
  // The last `size` samples twice over (each written at `write` and `write + size`), so the frame
  // that starts at the oldest, `write`, is one run.
  const ring = new Float64Array(2 * size);
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  let prev = new Float64Array(m + 1);
  let cur = new Float64Array(m + 1);
  let write = 0; // next slot in the ring
  let filled = 0; // samples seen, up to `size`
  let sinceFrame = 0;
  let first = true;
  let out = new Float32Array(4096);
  let count = 0;

  function frame() {
    // Oldest first; even samples to re, odd to im, windowed.
    for (let j = 0, at = write; j < m; j++, at += 2) {
      re[j] = ring[at] * window[2 * j];
      im[j] = ring[at + 1] * window[2 * j + 1];
    }
    fft(re, im);
    // Split the packed spectrum into the real frame's bins (those from `lowest` to m; bin m apart).
    for (let k = lowest; k < m; k++) {
      const k2 = m - k;
      const er = 0.5 * (re[k] + re[k2]), ei = 0.5 * (im[k] - im[k2]);
      const or = 0.5 * (im[k] + im[k2]), oi = -0.5 * (re[k] - re[k2]);
      const c = twr[k], s = twi[k];
      const xr = er + or * c - oi * s;
      const xi = ei + or * s + oi * c;
      cur[k] = Math.log(1 + GAMMA * Math.sqrt(xr * xr + xi * xi));
    }
    {
      const er = 0.5 * (re[0] + re[0]), ei = 0.5 * (im[0] - im[0]);
      const or = 0.5 * (im[0] + im[0]), oi = -0.5 * (re[0] - re[0]);
      const c = -1, s = 0;
      const xr = er + or * c - oi * s;
      const xi = ei + or * s + oi * c;
      cur[m] = Math.log(1 + GAMMA * Math.sqrt(xr * xr + xi * xi));
    }
    let flux = 0;
    if (!first) {
      for (let k = lowest; k <= m; k++) {
        const d = cur[k] - prev[k] - DEAD_ZONE;
        if (d > 0) flux += d;
      }
      flux /= m + 1 - lowest;
    }
    first = false;
    const was = prev;
    prev = cur;
    cur = was;
    if (count === out.length) {
      const grown = new Float32Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[count++] = flux;
  }

  return {
    rate: sampleRate / hop,
    push(input, inLength) {
      let mono = input, length = inLength;
      if (pairs) {
        if (half.length < inLength / 2 + 1) half = new Float64Array(inLength);
        let n = 0, pending = +held, isOdd = odd;
        for (let j = 0; j < inLength; j++) {
          if (isOdd) half[n++] = (pending + input[j]) * 0.5;
          else pending = input[j];
          isOdd = !isOdd;
        }
        held = pending;
        odd = isOdd;
        mono = half;
        length = n;
      }
      // Copied into the ring in runs up to the next frame: the first frame when the ring is full,
      // then one every `hop` samples.
      let i = 0;
      while (i < length) {
        const take = Math.min(filled < size ? size - filled : hop - sinceFrame, length - i);
        let w = write;
        for (let j = i; j < i + take; j++) {
          const v = mono[j];
          ring[w] = v;
          ring[w + size] = v;
          if (++w === size) w = 0;
        }
        write = w;
        i += take;
        if (filled < size) filled += take;
        else sinceFrame += take;
        if (filled === size && (sinceFrame === hop || sinceFrame === 0)) {
          sinceFrame = 0;
          frame();
        }
      }
    },
    onsets: () => out.subarray(0, count),
  };
}
