/**
 * Streaming analysis of an MP3: the bytes arrive as chunks (a ReadableStream or any async iterable),
 * are split into whole layer III frames (mpeg-frames.ts), decoded by mpg123 compiled to WebAssembly
 * (mpg123-decoder) and measured chunk by chunk (pcm-analyser.ts), so memory stays flat whatever the
 * length. See docs/decisions/0100-audio-analysis-library.md.
 */
import { createFrameSplitter, type FrameStats } from "./mpeg-frames.ts";
import { acquireDecoder, type PcmSink } from "./mpeg-decoder.ts";
import { createPcmAnalyser, type PcmAnalyser } from "./pcm-analyser.ts";
import { type AudioWarning, warningsFor } from "./warnings.ts";
import type { Fingerprint } from "./fingerprint.ts";

export interface AudioAnalysis {
  /** From the decoded samples (encoder delay and padding removed when a LAME tag gives them). */
  duration_s: number;
  /** The frames' bitrate (CBR) or their average (VBR), whole kbps. */
  bitrate_kbps: number;
  /** "cbr" when every audio frame has the same bitrate. */
  bitrate_mode: "cbr" | "vbr";
  sample_rate_hz: number;
  channels: 1 | 2;
  /** Integrated loudness, ITU-R BS.1770-4; null when nothing passes the -70 LUFS gate. */
  loudness_lufs: number | null;
  /** 4× oversampled peak, dBTP; null for digital silence. */
  true_peak_dbtp: number | null;
  /** Samples in runs of ≥ 3 at |x| ≥ 0.9999 (clipping.ts), summed over channels. */
  clipped_samples: number;
  /** Tempo folded into 160–190 when half or double; null when none could be found. */
  bpm: number | null;
  /**
   * How sure the tempo reading is, 0–1 (server/audio/tempo.ts): under 0.1 there is no `bpm`; null
   * when nothing could be read (too short, silence, a steady tone). docs/decisions/0221.
   */
  bpm_confidence: number | null;
  /** Seconds to the first drop, or null. */
  drop_s: number | null;
  /**
   * The musical key, e.g. "F minor", spelt as domain/musical-key.ts does; null when nothing tonal was
   * heard (silence, drums only). docs/decisions/0215.
   */
  key: string | null;
  /** The key's Camelot code, e.g. "4A" (minor A, major B); null with `key`. */
  camelot: string | null;
  /** How sure the key reading is, 0–1 (three decimals); null with `key`. */
  key_confidence: number | null;
  /** About 1,000 [min, max] pairs in -1..1 over equal slices of the track, for a waveform. */
  peaks: [number, number][];
  warnings: AudioWarning[];
}

export const AUDIO_DECODE_ERRORS = {
  empty: "Файл не удалось декодировать как MP3: файл пустой.",
  not_mp3: "Файл не удалось декодировать как MP3: в нём не найдено аудиокадров MPEG.",
  no_audio: "Файл не удалось декодировать как MP3: аудиокадры найдены, но звука в них нет.",
  free_format:
    "Файл не удалось декодировать как MP3: кадры со свободным битрейтом (free format) нестандартной длины не поддерживаются. Перекодируйте файл с обычным битрейтом, например 320 кбит/с.",
} as const;

/** The reason a track over `MAX_TRACK_MINUTES` is refused with (docs/decisions/0193). */
export const trackTooLongMessage = (minutes: number) =>
  `Трек длиннее ${minutes} мин: такие длинные файлы не принимаются.`;

export type AudioDecodeErrorCode = keyof typeof AUDIO_DECODE_ERRORS | "too_long";

/** The content is not decodable MP3 audio; `message` is the Russian reason for the person. */
export class AudioDecodeError extends Error {
  override name = "AudioDecodeError";
  constructor(readonly code: AudioDecodeErrorCode, message?: string) {
    super(message ?? AUDIO_DECODE_ERRORS[code as keyof typeof AUDIO_DECODE_ERRORS]);
  }
}

export interface AnalyseOptions {
  /**
   * Longest track taken, in minutes (`MAX_TRACK_MINUTES`). Judged twice, always from the frame
   * headers and never from decoded sound: before the first frame is decoded, from the length the
   * Xing/Info/VBRI tag declares or else from `totalBytes` at the first audio frame's bitrate; then,
   * as the confirmed frames are counted, the decode stops once they pass it. Either way the
   * analysis throws `AudioDecodeError("too_long")`.
   */
  maxMinutes?: number;
  /** The whole file's size, for the estimate above. */
  totalBytes?: number;
}

/** The decoder's input buffer is 64 KiB; larger chunks are fed in slices so its output stays small. */
const SLICE = 64 * 1024;
/**
 * Bytes after the ID3 tag with no MPEG frame in them before we stop reading: real files start their
 * frames within a few bytes of the tag, and a 50 MB upload of something else need not be read whole.
 */
export const MAX_LEADING_JUNK = 1024 * 1024;

export async function analyseMp3(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  opts: AnalyseOptions = {},
): Promise<AudioAnalysis> {
  return (await analyseMp3Frames(source, opts)).analysis;
}

/**
 * The length the frame headers give before anything is decoded, in seconds, once the first audio
 * frame (or the Xing/Info/VBRI tag with its frame count) is in; null before.
 */
function declaredSeconds(stats: FrameStats, totalBytes: number | undefined): number | null {
  if (stats.sampleRate === 0) return null;
  const perFrame = stats.sampleRate >= 32000 ? 1152 : 576;
  if (stats.declaredFrames !== null) return (stats.declaredFrames * perFrame) / stats.sampleRate;
  if (stats.frames === 0 || totalBytes === undefined) return null;
  return ((totalBytes - stats.id3Bytes) * 8) / (stats.firstBitrateKbps * 1000);
}

/**
 * `analyseMp3`, with the frame splitter's counts and the audio fingerprint (fingerprint.ts): the confirmed frames (server/audio/mpeg-frames.ts)
 * are the one rule for a track's length and average bitrate (issue 20).
 */
export async function analyseMp3Frames(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  opts: AnalyseOptions = {},
): Promise<{ analysis: AudioAnalysis; frames: FrameStats; fingerprint: Fingerprint }> {
  const splitter = createFrameSplitter();
  const stats = splitter.stats;
  const decoder = await acquireDecoder();
  let pcm: PcmAnalyser | null = null;
  let sampleRate = 0;
  let bytes = 0;

  // Views into the decoder's memory, measured before the next block is decoded (mpeg-decoder.ts).
  const sink: PcmSink = (channels, samples, rate) => {
    if (!pcm) {
      sampleRate = rate;
      // The decoder always gives two channels; a mono file's second is a copy of the first.
      pcm = createPcmAnalyser(sampleRate, splitter.stats.channels);
    }
    pcm.push(channels, samples);
  };
  const maxSeconds = opts.maxMinutes === undefined ? Infinity : opts.maxMinutes * 60;
  let declaredChecked = false;
  const tooLong = () => new AudioDecodeError("too_long", trackTooLongMessage(opts.maxMinutes!));
  const decode = (frames: Uint8Array) => {
    if (!declaredChecked && maxSeconds !== Infinity) {
      const declared = declaredSeconds(stats, opts.totalBytes);
      if (declared !== null) {
        declaredChecked = true;
        if (declared > maxSeconds) throw tooLong();
      }
    }
    // The frames counted so far, this batch included, before any of it is decoded.
    if (stats.samples / stats.sampleRate > maxSeconds) throw tooLong();
    if (frames.length > 0) decoder.decode(frames, sink);
  };

  try {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i += SLICE) decode(splitter.push(chunk.subarray(i, i + SLICE)));
      // Leaving the loop cancels a ReadableStream source (its iterator's return()).
      if (stats.frames === 0 && !stats.tagFrame && bytes - stats.id3Bytes > MAX_LEADING_JUNK) {
        throw new AudioDecodeError(stats.unsupportedFreeFormatKbps ? "free_format" : "not_mp3");
      }
    }
    decode(splitter.finish());
  } finally {
    decoder.release();
  }

  if (bytes === 0) throw new AudioDecodeError("empty");
  if (stats.frames === 0) throw new AudioDecodeError(stats.unsupportedFreeFormatKbps ? "free_format" : "not_mp3");
  if (!pcm) throw new AudioDecodeError("no_audio");
  const facts = (pcm as PcmAnalyser).finish();

  const frameSeconds = stats.samples / stats.sampleRate;
  const figures = {
    duration_s: Math.round((facts.samples / sampleRate) * 1000) / 1000,
    bitrate_kbps: stats.constantBitrate ? stats.firstBitrateKbps : Math.round((stats.bytes * 8) / frameSeconds / 1000),
    bitrate_mode: stats.constantBitrate ? "cbr" as const : "vbr" as const,
    sample_rate_hz: sampleRate,
    channels: stats.channels,
    loudness_lufs: facts.loudness_lufs,
    true_peak_dbtp: facts.true_peak_dbtp,
    clipped_samples: facts.clipped_samples,
    bpm: facts.bpm,
    bpm_confidence: facts.bpm_confidence,
    drop_s: facts.drop_s,
    key: facts.key,
    camelot: facts.camelot,
    key_confidence: facts.key_confidence,
    peaks: facts.peaks,
  };
  return {
    analysis: { ...figures, warnings: warningsFor(figures) },
    frames: stats,
    // Kept apart from the report: it is stored in its own tables (server/processing/fingerprints.ts).
    fingerprint: facts.fingerprint,
  };
}
