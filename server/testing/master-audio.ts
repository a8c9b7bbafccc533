/**
 * Release files for tests, the bench and the e2e (issue 34), made from a demo's own audio: the MP3
 * decoded (our mpg123 build, server/audio/mpeg-decoder.ts), changed (gain, silence, resampling) and
 * written as WAV at 16 or 24 bits or 32-bit float. Large files are streamed (`wavStream`), never held.
 * The decoders themselves are checked against ffmpeg's output (test/fixtures/audio/master/).
 */
import { acquireDecoder } from "../audio/mpeg-decoder.ts";
import { createFrameSplitter } from "../audio/mpeg-frames.ts";

export interface Pcm {
  rate: number;
  channels: Float32Array[];
}

/** Decodes an MP3 file to planar samples (two channels: mpg123 always gives two). */
export async function decodeMp3(path: string): Promise<Pcm> {
  const bytes = await Deno.readFile(path);
  const splitter = createFrameSplitter();
  const decoder = await acquireDecoder();
  const blocks: Float32Array[][] = [];
  let rate = 0;
  try {
    const sink = (ch: Float32Array[], n: number, r: number) => {
      rate = r;
      blocks.push([ch[0].slice(0, n), ch[1].slice(0, n)]);
    };
    decoder.decode(splitter.push(bytes), sink);
    decoder.decode(splitter.finish(), sink);
  } finally {
    decoder.release();
  }
  const total = blocks.reduce((s, b) => s + b[0].length, 0);
  const channels = [new Float32Array(total), new Float32Array(total)];
  let at = 0;
  for (const b of blocks) {
    channels[0].set(b[0], at);
    channels[1].set(b[1], at);
    at += b[0].length;
  }
  return { rate, channels };
}

/** Every sample times `10^(dB/20)`, clipped to ±1 (a louder master clips like one). */
export function gain(pcm: Pcm, dB: number): Pcm {
  const k = 10 ** (dB / 20);
  return { ...pcm, channels: pcm.channels.map((c) => c.map((x) => Math.max(-1, Math.min(1, x * k)))) };
}

/** Scaled so that the highest sample is exactly `peak` (1: full scale). */
export function normalise(pcm: Pcm, peak = 1): Pcm {
  let max = 0;
  for (const c of pcm.channels) for (const x of c) max = Math.max(max, Math.abs(x));
  return { ...pcm, channels: pcm.channels.map((c) => c.map((x) => (x / max) * peak)) };
}

/** `before` s of silence in front and `after` s behind. */
export function pad(pcm: Pcm, before: number, after = 0): Pcm {
  const a = Math.round(before * pcm.rate), b = Math.round(after * pcm.rate);
  return {
    ...pcm,
    channels: pcm.channels.map((c) => {
      const out = new Float32Array(a + c.length + b);
      out.set(c, a);
      return out;
    }),
  };
}

/** The first `seconds`. */
export function cut(pcm: Pcm, seconds: number): Pcm {
  return { ...pcm, channels: pcm.channels.map((c) => c.slice(0, Math.round(seconds * pcm.rate))) };
}

/** Linear resampling to `rate` (enough for a test master: the fingerprint and loudness barely notice). */
export function resample(pcm: Pcm, rate: number): Pcm {
  const ratio = pcm.rate / rate;
  const n = Math.floor(pcm.channels[0].length / ratio);
  return {
    rate,
    channels: pcm.channels.map((c) => {
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const x = i * ratio, j = Math.floor(x), f = x - j;
        out[i] = c[j] * (1 - f) + (c[Math.min(j + 1, c.length - 1)] ?? 0) * f;
      }
      return out;
    }),
  };
}

export type WavEncoding = 16 | 24 | "float";

/** A canonical WAV header for `frames` frames (RIFF, `fmt ` of 16 bytes, `data`). */
export function wavHeader(rate: number, channels: number, encoding: WavEncoding, frames: number): Uint8Array {
  const bytes = encoding === "float" ? 4 : encoding / 8;
  const dataBytes = frames * channels * bytes;
  const out = new Uint8Array(44);
  const v = new DataView(out.buffer);
  const w = (o: number, s: string) => [...s].forEach((ch, i) => (out[o + i] = ch.charCodeAt(0)));
  w(0, "RIFF");
  v.setUint32(4, 36 + dataBytes, true);
  w(8, "WAVE");
  w(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, encoding === "float" ? 3 : 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * channels * bytes, true);
  v.setUint16(32, channels * bytes, true);
  v.setUint16(34, bytes * 8, true);
  w(36, "data");
  v.setUint32(40, dataBytes, true);
  return out;
}

/** Interleaved sample bytes of frames `from`…`to` of `pcm`. */
export function wavData(pcm: Pcm, encoding: WavEncoding, from = 0, to = pcm.channels[0].length): Uint8Array {
  const c = pcm.channels.length;
  const bytes = encoding === "float" ? 4 : encoding / 8;
  const out = new Uint8Array((to - from) * c * bytes);
  const v = new DataView(out.buffer);
  let o = 0;
  for (let i = from; i < to; i++) {
    for (let k = 0; k < c; k++, o += bytes) {
      const x = Math.max(-1, Math.min(1, pcm.channels[k][i]));
      if (encoding === "float") v.setFloat32(o, pcm.channels[k][i], true);
      else if (encoding === 16) v.setInt16(o, Math.round(x * 32767), true);
      else {
        const s = Math.round(x * 8388607);
        v.setUint8(o, s & 0xff);
        v.setUint8(o + 1, (s >> 8) & 0xff);
        v.setUint8(o + 2, (s >> 16) & 0xff);
      }
    }
  }
  return out;
}

/** A whole WAV file. */
export function wavFile(pcm: Pcm, encoding: WavEncoding): Uint8Array {
  const head = wavHeader(pcm.rate, pcm.channels.length, encoding, pcm.channels[0].length);
  const data = wavData(pcm, encoding);
  const out = new Uint8Array(head.length + data.length);
  out.set(head);
  out.set(data, head.length);
  return out;
}

/**
 * A WAV of about `bytes` bytes that plays `pcm` over and over, streamed a piece at a time (the
 * memory test and the 300 MB bench): nothing larger than one loop of `pcm` is ever held.
 */
export function wavStream(
  pcm: Pcm,
  encoding: WavEncoding,
  bytes: number,
): { stream: ReadableStream<Uint8Array>; size: number } {
  const frameBytes = pcm.channels.length * (encoding === "float" ? 4 : encoding / 8);
  const frames = Math.floor((bytes - 44) / frameBytes);
  const loop = wavData(pcm, encoding);
  const loopFrames = pcm.channels[0].length;
  let sent = 0;
  let headSent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (!headSent) {
        headSent = true;
        ctrl.enqueue(wavHeader(pcm.rate, pcm.channels.length, encoding, frames));
        return;
      }
      if (sent >= frames) return ctrl.close();
      const at = sent % loopFrames;
      const n = Math.min(loopFrames - at, frames - sent, 65536);
      ctrl.enqueue(loop.slice(at * frameBytes, (at + n) * frameBytes));
      sent += n;
    },
  });
  return { stream, size: 44 + frames * frameBytes };
}
