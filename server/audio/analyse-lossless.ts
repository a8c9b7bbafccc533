/**
 * A release file's one streaming pass (issue 34): WAV, RF64, AIFF/AIFC (pcm-container.ts) or FLAC
 * (`@wasm-audio-decoders/flac`, libFLAC compiled to WebAssembly, MIT), decoded block by block and
 * measured as it goes: the length, integrated loudness (loudness.ts), true peak (true-peak.ts),
 * clipped samples (clipping.ts) and the audio fingerprint (fingerprint.ts) of the same half-rate mono
 * mix the MP3 analysis fingerprints (band-envelopes.ts), so a master's codes compare with its demo's.
 * Nothing else of the MP3 report (tempo, key, drop, waveform) is measured: the demo has them, and
 * leaving them out makes the pass several times faster on a 300 MB master. Memory is fixed: the
 * decoder's blocks are reused or dropped, the fingerprint keeps at most its first 120 s.
 */
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { createClipCounter } from "./clipping.ts";
import { createFingerprinter } from "./fingerprint.ts";
import { createLoudnessMeter } from "./loudness.ts";
import { createTruePeakMeter } from "./true-peak.ts";
import { createPcmReader, type PcmBlockSink, PcmDecodeError, type PcmFormat, sniff } from "./pcm-container.ts";

export interface LosslessFacts {
  format: PcmFormat;
  /** Samples per channel decoded, over the rate (three decimals). */
  duration_s: number;
  /** Integrated loudness, ITU-R BS.1770-4 (one decimal); null when nothing passes the gate. */
  loudness_lufs: number | null;
  /** dBTP (one decimal); null for digital silence. */
  true_peak_dbtp: number | null;
  /** Samples in runs of ≥ 3 at |x| ≥ 0.9999, summed over channels (clipping.ts). */
  clipped_samples: number;
  /** The decode stopped at `maxSeconds`: `duration_s` is where it stopped. */
  cut: boolean;
  fingerprint: Uint32Array;
}

export interface LosslessOptions {
  /** Told the format before any sample is decoded; false stops the pass (`facts` null). */
  onFormat?(format: PcmFormat): boolean;
  /** Decoding stops past this length (`cut`). */
  maxSeconds?: number;
  /** Sees every decoded block (tests compare the samples with ffmpeg's). */
  onBlock?(planes: Float32Array[], length: number): void;
}

/** Bytes fed to a decoder at once. */
const SLICE = 64 * 1024;
const round1 = (x: number) => Math.round(x * 10) / 10 + 0;

/** Measures the blocks as they come (see the module comment). */
function createMeters(format: PcmFormat) {
  const channels = Math.min(format.channels, 2);
  const loudness = createLoudnessMeter(format.sampleRate, channels);
  const truePeak = createTruePeakMeter(channels);
  const clips = createClipCounter(channels);
  const print = createFingerprinter(format.sampleRate / 2);
  let mono = new Float64Array(4096);
  let pending = 0, odd = false, samples = 0;
  return {
    push(planes: Float32Array[], length: number) {
      if (length === 0) return;
      samples += length;
      loudness.push(planes, length);
      truePeak.push(planes, length);
      clips.push(planes, length);
      // The mono mix of band-envelopes.ts: (L + R) summed over pairs of samples, a quarter of it.
      const left = planes[0], right = channels > 1 ? planes[1] : planes[0];
      if (mono.length < length / 2 + 1) mono = new Float64Array(length);
      let n = 0, p = +pending, isOdd = odd;
      for (let j = 0; j < length; j++) {
        const v = left[j] + right[j];
        if (isOdd) mono[n++] = (p + v) * 0.25;
        else p = v;
        isOdd = !isOdd;
      }
      pending = p;
      odd = isOdd;
      print.push(mono, n);
    },
    get samples() {
      return samples;
    },
    finish(cut: boolean): LosslessFacts {
      truePeak.finish();
      const lufs = loudness.integrated();
      const tp = truePeak.peak();
      return {
        format,
        duration_s: Math.round((samples / format.sampleRate) * 1000) / 1000,
        loudness_lufs: lufs === null ? null : round1(lufs),
        true_peak_dbtp: tp > 0 ? round1(20 * Math.log10(tp)) : null,
        clipped_samples: clips.count(),
        cut,
        fingerprint: print.finish().codes,
      };
    },
  };
}

/** FLAC's STREAMINFO (the first metadata block, right after `fLaC`): the format before decoding. */
export function flacStreamInfo(head: Uint8Array): PcmFormat | null {
  if (head.length < 42 || (head[4] & 0x7f) !== 0) return null;
  const b = (i: number) => head[8 + i];
  const sampleRate = (b(10) << 12) | (b(11) << 4) | (b(12) >> 4);
  const channels = ((b(12) >> 1) & 7) + 1;
  const bits = (((b(12) & 1) << 4) | (b(13) >> 4)) + 1;
  const total = (b(13) & 0x0f) * 2 ** 32 + ((b(14) << 24) >>> 0) + (b(15) << 16) + (b(16) << 8) + b(17);
  return { container: "flac", encoding: "int", bits, sampleRate, channels, declaredFrames: total || null };
}

/** An ID3v2 tag's whole length at the start of `head` (some FLAC writers put one first), else 0. */
function id3Length(head: Uint8Array): number {
  if (head.length < 10 || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return 0;
  const size = (head[6] << 21) | (head[7] << 14) | (head[8] << 7) | head[9];
  return 10 + size + (head[5] & 0x10 ? 10 : 0);
}

/** Stops a pass from inside a sink. */
class Stop extends Error {}

/**
 * Decodes and measures `source`. Throws PcmDecodeError when it is not audio this can read; resolves
 * `null` when `onFormat` refused the format.
 */
export async function analyseLossless(
  source: AsyncIterable<Uint8Array>,
  opts: LosslessOptions = {},
): Promise<LosslessFacts | null> {
  const maxFrames = (f: PcmFormat) => (opts.maxSeconds ?? Infinity) * f.sampleRate;
  let head = new Uint8Array(0);
  let skip = -1;
  let feed: ((bytes: Uint8Array) => Promise<void> | void) | null = null;
  let end: (() => Promise<LosslessFacts | null>) | null = null;
  let sawBytes = false;
  try {
    for await (const chunk of source) {
      if (chunk.length === 0) continue;
      sawBytes = true;
      if (!feed) {
        // Kept until the magic (after any ID3 tag) and, for FLAC, STREAMINFO are in.
        const joined = new Uint8Array(head.length + chunk.length);
        joined.set(head);
        joined.set(chunk, head.length);
        head = joined;
        if (skip < 0) {
          if (head.length < 10) continue;
          skip = id3Length(head);
        }
        if (head.length < skip + 42) {
          if (head.length > skip + 64 * 1024 * 1024) throw new PcmDecodeError("unknown");
          continue;
        }
        const body = head.subarray(skip);
        head = new Uint8Array(0);
        const started = start(body, opts, maxFrames);
        feed = started.feed;
        end = started.end;
        await feed(body);
        continue;
      }
      for (let i = 0; i < chunk.length; i += SLICE) await feed(chunk.subarray(i, i + SLICE));
    }
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  if (!sawBytes) throw new PcmDecodeError("empty");
  if (!feed) {
    // Shorter than any header: start on what there is, so a tiny file gets the right reason.
    const body = head.subarray(Math.max(0, skip));
    const started = start(body, opts, maxFrames);
    await started.feed(body);
    end = started.end;
  }
  return await end!();
}

/** The reader for the file `body` starts: its feed and its end. */
function start(
  body: Uint8Array,
  opts: LosslessOptions,
  maxFrames: (f: PcmFormat) => number,
): { feed: (bytes: Uint8Array) => Promise<void> | void; end: () => Promise<LosslessFacts | null> } {
  const kind = sniff(body);
  if (kind === null) throw new PcmDecodeError(body.length < 12 ? "broken" : "unknown");
  let meters: ReturnType<typeof createMeters> | null = null;
  let refused = false;
  let cut = false;
  let limit = Infinity;
  const onFormat = (f: PcmFormat) => {
    if (opts.onFormat && !opts.onFormat(f)) {
      refused = true;
      return false;
    }
    meters = createMeters(f);
    limit = maxFrames(f);
    return true;
  };
  const sink: PcmBlockSink = (planes, length) => {
    if (!meters) return;
    const room = Math.max(0, limit - meters.samples);
    opts.onBlock?.(planes, Math.min(length, room));
    meters.push(planes, Math.min(length, room));
    if (length > room) {
      cut = true;
      throw new Stop();
    }
  };
  const finish = () => {
    if (refused) return null;
    if (!meters || meters.samples === 0) throw new PcmDecodeError("broken", "no-audio");
    return (meters as ReturnType<typeof createMeters>).finish(cut);
  };
  if (kind !== "flac") {
    const reader = createPcmReader(kind, sink, onFormat);
    return {
      feed: (bytes) => {
        if (!refused) reader.push(bytes);
      },
      end: () => {
        if (!refused && !cut) reader.finish();
        return Promise.resolve(finish());
      },
    };
  }
  const info = flacStreamInfo(body);
  if (!info) throw new PcmDecodeError("broken", "STREAMINFO");
  if (!onFormat(info)) return { feed: () => {}, end: () => Promise.resolve(null) };
  const decoder = new FLACDecoder();
  let ready = false;
  let broken = false;
  const take = (out: { channelData: Float32Array[]; samplesDecoded: number; errors: unknown[] }) => {
    if (out.errors.length > 0 && out.samplesDecoded === 0) broken = true;
    if (out.samplesDecoded > 0) sink(out.channelData, out.samplesDecoded);
  };
  return {
    feed: async (bytes) => {
      if (!ready) {
        await decoder.ready;
        ready = true;
      }
      for (let i = 0; i < bytes.length; i += SLICE) take(await decoder.decode(bytes.subarray(i, i + SLICE)));
    },
    end: async () => {
      try {
        if (ready && !cut) take(await decoder.flush());
      } catch (err) {
        if (!(err instanceof Stop)) throw err;
      } finally {
        if (ready) decoder.free();
      }
      if (broken && (!meters || (meters as ReturnType<typeof createMeters>).samples === 0)) {
        throw new PcmDecodeError("broken", "flac");
      }
      return finish();
    },
  };
}
