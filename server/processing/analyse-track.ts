import {
  CouldNotDetermineFileTypeError,
  FieldDecodingError,
  type IAudioMetadata,
  InternalParserError,
  parseWebStream,
  UnexpectedFileContentError,
  UnsupportedFileTypeError,
} from "music-metadata";
import { createHash } from "node:crypto";
import { analyseMp3, analyseMp3Frames, type AudioAnalysis, AudioDecodeError } from "../audio/analyse-mp3.ts";
import type { FrameStats } from "../audio/mpeg-frames.ts";
import type { Fingerprint } from "../audio/fingerprint.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { storedChunks } from "../storage/stored-chunks.ts";
import { createId3Reader, Id3TagRefused, type Id3Tags } from "./id3v2.ts";

export interface TrackFacts {
  size: number;
  checksum: string;
  /** Milliseconds. */
  duration: number;
  /** Bits per second (the average for VBR). */
  bitrate: number | null;
  sample_rate: number | null;
  channels: number | null;
  id3_artist: string | null;
  id3_title: string | null;
}

export type Verdict =
  | {
    status: "completed";
    facts: TrackFacts;
    analysis: AudioAnalysis;
    /** The audio fingerprint (server/audio/fingerprint.ts), looked up and stored by the processor. */
    fingerprint: Fingerprint;
  }
  | {
    status: "failed";
    error: string;
    /** The content itself is unusable: the stored file can go. */
    discard: boolean;
    size?: number;
    checksum?: string;
  };

export const PROCESSING_ERRORS = {
  missing: "Файл трека не найден в хранилище. Загрузите его ещё раз.",
  empty: "Файл пустой.",
  notMp3: "Файл не является аудио в формате MP3.",
  unreadable: "Не удалось прочитать аудиоданные: файл повреждён или не является MP3.",
  noAudio: "В файле не найдено аудиоданных MP3.",
  duplicate: "Этот аудиофайл уже был загружен ранее.",
  exhausted: (attempts: number) =>
    `Не удалось обработать файл (попыток: ${attempts}). Попробуйте загрузить его ещё раз.`,
} as const;

function isParseError(err: unknown): boolean {
  return err instanceof CouldNotDetermineFileTypeError || err instanceof UnsupportedFileTypeError ||
    err instanceof UnexpectedFileContentError || err instanceof FieldDecodingError ||
    err instanceof InternalParserError || (err instanceof Error && err.name === "EndOfStreamError");
}

type Outcome<T> = { ok: T } | { err: unknown };

interface Pass {
  /** Bytes read; the whole file only when `complete`. */
  size: number;
  /** The whole file was read (the analysis stops early on content that is not MP3). */
  complete: boolean;
  checksum: string;
  /** The leading ID3v2 tag's title and artist, read by our own reader within its budget. */
  id3: Id3Tags;
  /** The last 128 bytes read: an ID3v1 tag when the file has one. */
  tail: Uint8Array;
  meta: Outcome<IAudioMetadata>;
  /** The analysis and the confirmed frames it counted; a refusal (tag over budget, too long, undecodable). */
  analysis: Outcome<{ analysis: AudioAnalysis; frames: FrameStats; fingerprint: Fingerprint }>;
}

/**
 * Longest stretch the pass works before it lets timers and requests in. Reads of a local file resolve
 * without a turn of the event loop, and decoding a chunk takes milliseconds, so without this a whole
 * track's analysis could hold the server for a second or more (measured on 10 MB).
 */
const SLICE_MS = 8;
/** Bytes per read: about 10 ms of decoding and measuring at 320 kbps on this machine. */
const READ_BYTES = 64 * 1024;

/**
 * The stored bytes as chunks. A local file is read through one reused buffer: every consumer below is
 * done with a chunk before the next one is read. The collector is still paced by the bytes read, as
 * for an upload (0023): the analysis's own buffers outside the JavaScript heap (the onset envelope as
 * it grows, tempo's working copy) would otherwise pile up over several tracks until V8's ~64 MB
 * limit for such memory (0104).
 */
function fileChunks(storage: FileStorage, key: string): AsyncGenerator<Uint8Array> {
  let since = performance.now();
  const breathe = () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      since = performance.now();
    });
  };
  return storedChunks(storage, key, READ_BYTES, breathe);
}

/**
 * A stream music-metadata reads the head of the file from while the one pass goes on. Each chunk is
 * copied (the pass reuses its buffer) and the pass waits while one is still unread, so at most a
 * chunk or two is held; once the parser is done, nothing more is copied.
 */
function metadataFeed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wake: (() => void) | null = null;
  let done = false;
  const resume = () => {
    wake?.();
    wake = null;
  };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    pull: resume,
    cancel: () => {
      done = true;
      resume();
    },
  }, { highWaterMark: 1 });
  return {
    stream,
    async push(chunk: Uint8Array) {
      if (done) return;
      controller.enqueue(chunk.slice());
      if ((controller.desiredSize ?? 1) <= 0) await new Promise<void>((r) => (wake = r));
    },
    /** The parser has its answer: stop feeding it. */
    stop() {
      done = true;
      resume();
    },
    /** The pass has ended: the parser sees the end of the file. */
    end() {
      if (done) return;
      done = true;
      controller.close();
      resume();
    },
  };
}

/**
 * Bytes after the ID3v2 tag that music-metadata is given: the container, the codec and the first
 * frames' format sit at the start; ID3v1 is read from the tail. It is never given the ID3v2 tag
 * itself, which it would read whole whatever its size (issue 20): our own reader (id3v2.ts) takes
 * the title and artist from it within a budget (docs/decisions/0192).
 */
const METADATA_HEAD = 1024 * 1024;

export interface AnalyseTrackOptions {
  /** `MAX_TRACK_MINUTES`: longer tracks are refused (docs/decisions/0193). */
  maxTrackMinutes?: number;
}

/**
 * The one pass over the stored bytes: size, SHA-256, the ID3v2 title and artist (our reader, within
 * its budget), music-metadata's reading of the head after the tag (container, codec) and the audio
 * analysis with its confirmed frame count (decode, loudness, tempo, peaks), never holding the file
 * in memory. Storage errors are thrown; what the parser and the decoder say about
 * the content is returned.
 */
async function readPass(storage: FileStorage, key: string, fileSize: number, opts: AnalyseTrackOptions): Promise<Pass> {
  const hash = createHash("sha256");
  const id3 = createId3Reader();
  const tail = new Uint8Array(128);
  let tailLength = 0;
  let size = 0;
  let complete = false;
  /** Where music-metadata's head starts (after the ID3v2 tag), once the tag's header is read. */
  let headStart = -1;
  /** The first bytes while fewer than an ID3v2 header's 10 have come (a stream's chunks may be tiny). */
  let early = new Uint8Array(0);
  const feed = metadataFeed();
  let metaRun: Promise<Outcome<IAudioMetadata>> | null = null;
  const startMeta = () =>
    parseWebStream(
      feed.stream,
      { size: Math.max(0, fileSize - headStart) },
      { duration: false, skipCovers: true },
    ).then((ok) => ({ ok }), (err) => ({ err })).finally(() => feed.stop());

  /** Gives music-metadata the bytes of [headStart, headStart + METADATA_HEAD) in `bytes` (at file offset `from`). */
  async function feedHead(bytes: Uint8Array, from: number) {
    const headEnd = headStart + METADATA_HEAD;
    const lo = Math.max(from, headStart);
    const hi = Math.min(from + bytes.byteLength, headEnd);
    if (lo < hi) await feed.push(bytes.subarray(lo - from, hi - from));
    // music-metadata would read an MPEG stream to its very end; the head holds all it says here.
    if (from + bytes.byteLength >= headEnd) feed.end();
  }

  async function* chunks() {
    for await (const bytes of fileChunks(storage, key)) {
      const before = size;
      size += bytes.byteLength;
      hash.update(bytes);
      // Throws Id3TagRefused as soon as the tag passes its budget (at its header for its declared size).
      if (!id3.done) id3.push(bytes);
      if (bytes.byteLength >= tail.length) {
        tail.set(bytes.subarray(bytes.byteLength - tail.length));
        tailLength = tail.length;
      } else {
        const keep = Math.min(tailLength, tail.length - bytes.byteLength);
        tail.copyWithin(0, tailLength - keep, tailLength);
        tail.set(bytes, keep);
        tailLength = keep + bytes.byteLength;
      }
      if (headStart < 0) {
        if (size < 10) {
          const joined = new Uint8Array(size);
          joined.set(early);
          joined.set(bytes, before);
          early = joined;
        } else {
          headStart = id3.tags.tagBytes;
          metaRun = startMeta();
          if (early.byteLength > 0) await feedHead(early, 0);
          await feedHead(bytes, before);
        }
      } else if (before < headStart + METADATA_HEAD) {
        await feedHead(bytes, before);
      }
      yield bytes;
    }
    complete = true;
    if (headStart < 0 && size > 0) {
      // A file of fewer than 10 bytes: no tag, and music-metadata gets all of it.
      headStart = 0;
      metaRun = startMeta();
      await feedHead(early, 0);
    }
  }

  let analysis: Pass["analysis"];
  try {
    analysis = {
      ok: await analyseMp3Frames(chunks(), { maxMinutes: opts.maxTrackMinutes, totalBytes: fileSize }),
    };
  } catch (err) {
    if (!(err instanceof AudioDecodeError) && !(err instanceof Id3TagRefused)) throw err;
    analysis = { err };
  } finally {
    feed.end();
    // Settled either way; after a storage error its answer is not wanted.
    (metaRun as Promise<unknown> | null)?.catch(() => {});
  }
  return {
    size,
    complete,
    checksum: hash.digest("hex"),
    id3: id3.tags,
    tail: tail.slice(0, tailLength),
    meta: metaRun ? await metaRun : { err: new CouldNotDetermineFileTypeError("no bytes") },
    analysis,
  };
}

/**
 * Artist and title of an ID3v1 tag (the file's last 128 bytes), which only a parser that can seek to
 * the end finds; music-metadata reads the head here. Its priority is the lowest, as in music-metadata:
 * used only when the head has no such tag.
 */
function id3v1(tail: Uint8Array): { artist?: string; title?: string } {
  if (tail.length !== 128 || tail[0] !== 0x54 || tail[1] !== 0x41 || tail[2] !== 0x47) return {};
  const field = (from: number) =>
    new TextDecoder("latin1").decode(tail.subarray(from, from + 30)).replace(/\0.*$/s, "");
  return { title: field(3), artist: field(33) };
}

const text = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t.slice(0, 500) : null;
};

/**
 * Reads a stored upload once, never holding it in memory: size, SHA-256, the ID3v2 tag, music-metadata's
 * reading of the head (container, codec) and the audio analysis all take their bytes from the
 * same pass; then judges it. Content problems become a `failed` verdict; anything else (storage or
 * programming errors) is thrown so the job can be retried.
 */
export async function analyseTrack(
  storage: FileStorage,
  key: string,
  opts: AnalyseTrackOptions = {},
): Promise<Verdict> {
  const stat = await storage.stat(key);
  if (!stat) return { status: "failed", error: PROCESSING_ERRORS.missing, discard: false };
  if (stat.size === 0) return { status: "failed", error: PROCESSING_ERRORS.empty, discard: true, size: 0 };

  const pass = await readPass(storage, key, stat.size, opts);
  const { size, checksum } = pass;
  // A pass the analysis cut short (no MPEG frame in the first MiB) has no checksum of the whole file.
  const fail = (error: string) => ({
    status: "failed" as const,
    error,
    discard: true,
    ...(pass.complete ? { size, checksum } : { size: stat.size }),
  });

  // Refused before the format is judged: what was read is not a track we take, whatever it is.
  if ("err" in pass.analysis) {
    const err = pass.analysis.err;
    if (
      err instanceof Id3TagRefused ||
      (err instanceof AudioDecodeError && (err.code === "too_long" || err.code === "free_format"))
    ) {
      return fail(err.message);
    }
  }

  // Free format (0218): music-metadata takes its headers for ADTS; the frames our splitter confirmed
  // (each one where the last one's length points) are the proof of MPEG layer III, and the facts
  // come from them.
  const freeFormat = "ok" in pass.analysis && pass.analysis.ok.frames.freeFormat;
  if (!freeFormat && "err" in pass.meta) {
    const err = pass.meta.err;
    if (err instanceof CouldNotDetermineFileTypeError || err instanceof UnsupportedFileTypeError) {
      return fail(PROCESSING_ERRORS.notMp3);
    }
    if (isParseError(err)) return fail(PROCESSING_ERRORS.unreadable);
    throw err;
  }

  const format: Partial<IAudioMetadata["format"]> = freeFormat || !("ok" in pass.meta) ? {} : pass.meta.ok.format;
  if (!freeFormat && (format.container !== "MPEG" || !/layer 3/i.test(format.codec ?? ""))) {
    const found = format.codec && format.container === "MPEG" ? format.codec : format.container;
    return fail(
      found ? `${PROCESSING_ERRORS.notMp3.slice(0, -1)} (обнаружен формат ${found}).` : PROCESSING_ERRORS.notMp3,
    );
  }
  // What the decoder could not make sound of is no track to listen to (issue 12): its Russian reason.
  if ("err" in pass.analysis) return fail((pass.analysis.err as AudioDecodeError).message);
  const { analysis, frames, fingerprint } = pass.analysis.ok;
  // The length is the confirmed frames' (the frame splitter's rule, the one the decoder is fed by):
  // headers in junk that no next header confirms are not audio (issue 20).
  const seconds = frames.samples / frames.sampleRate;
  if (frames.frames === 0 || !(seconds > 0)) return fail(PROCESSING_ERRORS.noAudio);
  const tag = pass.id3.artist && pass.id3.title ? {} : id3v1(pass.tail);

  return {
    status: "completed",
    facts: {
      size,
      checksum,
      duration: Math.round(seconds * 1000),
      // CBR: music-metadata's figure (the frames' bitrate). VBR: the average over the counted frames,
      // which is what the Xing header promises when it is right; music-metadata only sees the head.
      bitrate: Math.round(
        analysis.bitrate_mode === "vbr" || format.bitrate === undefined ? (frames.bytes * 8) / seconds : format.bitrate,
      ),
      sample_rate: format.sampleRate ?? (freeFormat ? frames.sampleRate : null),
      channels: format.numberOfChannels ?? (freeFormat ? frames.channels : null),
      id3_artist: text(pass.id3.artist ?? undefined) ?? text(tag.artist),
      id3_title: text(pass.id3.title ?? undefined) ?? text(tag.title),
    },
    analysis,
    fingerprint,
  };
}

/** `analyseStored` stopped by its `interrupt` (re-analysis giving way to an upload). */
export class AnalysisInterrupted extends Error {
  constructor() {
    super("analysis interrupted");
    this.name = "AnalysisInterrupted";
  }
}

/**
 * The audio report of a stored file (tracks completed before the analysis existed, reports analysed
 * again). `interrupt` is asked before each chunk: when it says so, the read stops (the file closed,
 * the bucket's stream cancelled) and AnalysisInterrupted is thrown. `fingerprint` is handed the
 * file's audio fingerprint from the same pass (re-analysis stores it again: issue 38, 0421).
 */
export async function analyseStored(
  storage: FileStorage,
  key: string,
  opts: { interrupt?: () => boolean; fingerprint?: (print: Fingerprint) => void } = {},
): Promise<AudioAnalysis> {
  const { interrupt } = opts;
  async function* interruptible() {
    for await (const chunk of fileChunks(storage, key)) {
      if (interrupt!()) throw new AnalysisInterrupted();
      yield chunk;
    }
  }
  const source = interrupt ? interruptible() : fileChunks(storage, key);
  if (!opts.fingerprint) return await analyseMp3(source);
  const pass = await analyseMp3Frames(source);
  opts.fingerprint(pass.fingerprint);
  return pass.analysis;
}
