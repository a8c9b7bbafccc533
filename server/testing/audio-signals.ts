/** Synthetic signals for the audio tests and the fixture generator; nothing in production imports it. */

/** A deterministic pseudo-random source in [-1, 1) (xorshift32), so tests do not depend on luck. */
export function noiseSource(seed = 1): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 31 - 1;
  };
}

export const dbToGain = (db: number) => 10 ** (db / 20);

/** A sine of `seconds` at `level` dBFS (peak), starting at `phase` radians. */
export function sine(freq: number, levelDb: number, seconds: number, sampleRate: number, phase = 0): Float32Array {
  const n = Math.round(seconds * sampleRate);
  const a = dbToGain(levelDb);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = a * Math.sin((2 * Math.PI * freq * i) / sampleRate + phase);
  return out;
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Calls `push` with the channels cut into chunks of `chunk` samples (as the decoder hands them out). */
export function feed(
  push: (channels: Float32Array[], length: number) => void,
  channels: Float32Array[],
  chunk = 1152 * 3,
): void {
  const n = channels[0].length;
  for (let i = 0; i < n; i += chunk) {
    const len = Math.min(chunk, n - i);
    push(channels.map((c) => c.subarray(i, i + len)), len);
  }
}

/**
 * A drum loop at `bpm`: a decaying 55 Hz kick on beats 1 and 3 of each bar, a noise snare on 2 and 4
 * (or only the kick on every beat with `kickEveryBeat`), optional closed hats (high noise bursts) on
 * eighths, and an optional sustained 45 Hz sub bass. Levels are peak amplitudes.
 */
export interface DrumOptions {
  bpm: number;
  seconds: number;
  sampleRate: number;
  kick?: number;
  snare?: number;
  hats?: number;
  bass?: number;
  kickEveryBeat?: boolean;
  seed?: number;
}

export function drums(o: DrumOptions): Float32Array {
  const { bpm, seconds, sampleRate: fs } = o;
  const n = Math.round(seconds * fs);
  const out = new Float32Array(n);
  const noise = noiseSource(o.seed ?? 7);
  const beat = (60 / bpm) * fs;
  const add = (at: number, len: number, f: (i: number) => number) => {
    for (let i = 0; i < len && at + i < n; i++) out[at + i] += f(i);
  };
  const beats = Math.ceil(n / beat);
  for (let b = 0; b < beats; b++) {
    const at = Math.round(b * beat);
    const kickHere = o.kickEveryBeat || b % 2 === 0;
    if ((o.kick ?? 0) > 0 && kickHere) {
      // A kick: pitch falling from 120 to 50 Hz, 150 ms decay.
      let ph = 0;
      add(at, Math.round(0.25 * fs), (i) => {
        const t = i / fs;
        ph += (2 * Math.PI * (50 + 70 * Math.exp(-t / 0.03))) / fs;
        return o.kick! * Math.exp(-t / 0.15) * Math.sin(ph);
      });
    }
    if ((o.snare ?? 0) > 0 && !o.kickEveryBeat && b % 2 === 1) {
      add(at, Math.round(0.18 * fs), (i) => {
        const t = i / fs;
        return o.snare! * Math.exp(-t / 0.05) * (0.6 * noise() + 0.4 * Math.sin((2 * Math.PI * 190 * i) / fs));
      });
    }
    if ((o.hats ?? 0) > 0) {
      for (const half of [0, 0.5]) {
        // High noise: the difference of successive noise samples has little below a few kHz.
        let prev = 0;
        add(Math.round((b + half) * beat), Math.round(0.04 * fs), (i) => {
          const x = noise();
          const hp = x - prev;
          prev = x;
          return 0.5 * o.hats! * Math.exp(-(i / fs) / 0.01) * hp;
        });
      }
    }
  }
  const bass = o.bass ?? 0;
  if (bass > 0) {
    for (let i = 0; i < n; i++) out[i] += bass * Math.sin((2 * Math.PI * 45 * i) / fs);
  }
  return out;
}
