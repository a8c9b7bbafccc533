import {
  CouldNotDetermineFileTypeError,
  FieldDecodingError,
  type IAudioMetadata,
  InternalParserError,
  parseFile,
  parseWebStream,
  UnexpectedFileContentError,
  UnsupportedFileTypeError,
} from "music-metadata";
import { createHash } from "node:crypto";
import type { FileStorage } from "../../lib/storage.ts";
import { paceStreamed } from "../../lib/gc-pacer.ts";
import { createMpegScanner, type MpegScan } from "./mpeg-scan.ts";

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
  | { status: "completed"; facts: TrackFacts }
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

interface Pass {
  size: number;
  checksum: string;
  scan: MpegScan;
}

/**
 * One pass over the stored bytes: size, SHA-256 and the frame count. A local file is read through one
 * reused buffer, so nothing is left for the garbage collector; other stores are read as a stream.
 */
async function readPass(storage: FileStorage, key: string): Promise<Pass> {
  const hash = createHash("sha256");
  const scanner = createMpegScanner();
  let size = 0;
  const take = (bytes: Uint8Array) => {
    size += bytes.byteLength;
    hash.update(bytes);
    scanner.push(bytes);
  };
  const path = storage.localPath(key);
  if (path) {
    const file = await Deno.open(path, { read: true });
    try {
      const buf = new Uint8Array(256 * 1024);
      for (;;) {
        const n = await file.read(buf);
        if (n === null) break;
        take(buf.subarray(0, n));
      }
    } finally {
      file.close();
    }
  } else {
    const { body } = await storage.read(key);
    for await (const chunk of body) {
      take(chunk);
      paceStreamed(chunk.byteLength);
    }
  }
  return { size, checksum: hash.digest("hex"), scan: scanner.finish() };
}

/**
 * Container, codec and tags from music-metadata. Only the head of the file is read (the length comes
 * from the frame count), over a local path when there is one.
 */
async function readMetadata(storage: FileStorage, key: string, size: number): Promise<IAudioMetadata> {
  const options = { duration: false, skipCovers: true };
  const path = storage.localPath(key);
  // parseFile trusts a path's extension over the content; upload keys have none (uploads/routes.ts).
  if (path && !/\.[^/]*$/.test(path.slice(path.lastIndexOf("/") + 1))) return await parseFile(path, options);
  const { body } = await storage.read(key);
  try {
    return await parseWebStream(body, { size }, options);
  } finally {
    await body.cancel().catch(() => {});
  }
}

const text = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t.slice(0, 500) : null;
};

/**
 * Reads a stored upload once in full (size, SHA-256, frame count) and its head with music-metadata
 * (container, codec, tags), never holding the file in memory, and judges it. Content problems become a `failed` verdict;
 * anything else (storage or programming errors) is thrown so the job can be retried.
 */
export async function analyseTrack(storage: FileStorage, key: string): Promise<Verdict> {
  const stat = await storage.stat(key);
  if (!stat) return { status: "failed", error: PROCESSING_ERRORS.missing, discard: false };
  if (stat.size === 0) return { status: "failed", error: PROCESSING_ERRORS.empty, discard: true, size: 0 };

  const { size, checksum, scan } = await readPass(storage, key);
  const fail = (error: string) => ({ status: "failed" as const, error, discard: true, size, checksum });

  let meta;
  try {
    meta = await readMetadata(storage, key, size);
  } catch (err) {
    if (err instanceof CouldNotDetermineFileTypeError || err instanceof UnsupportedFileTypeError) {
      return fail(PROCESSING_ERRORS.notMp3);
    }
    if (isParseError(err)) return fail(PROCESSING_ERRORS.unreadable);
    throw err;
  }

  const { format, common } = meta;
  if (format.container !== "MPEG" || !/layer 3/i.test(format.codec ?? "")) {
    const found = format.codec && format.container === "MPEG" ? format.codec : format.container;
    return fail(found ? `${PROCESSING_ERRORS.notMp3.slice(0, -1)} (обнаружен формат ${found}).` : PROCESSING_ERRORS.notMp3);
  }
  if (scan.frames === 0 || scan.seconds <= 0) return fail(PROCESSING_ERRORS.noAudio);
  const seconds = scan.seconds;

  return {
    status: "completed",
    facts: {
      size,
      checksum,
      duration: Math.round(seconds * 1000),
      // music-metadata's figure (the Xing average for VBR); else the average over the counted frames.
      bitrate: Math.round(format.bitrate ?? (scan.audioBytes * 8) / seconds),
      sample_rate: format.sampleRate ?? null,
      channels: format.numberOfChannels ?? null,
      id3_artist: text(common.artist),
      id3_title: text(common.title),
    },
  };
}
