import {
  CouldNotDetermineFileTypeError,
  FieldDecodingError,
  InternalParserError,
  parseWebStream,
  UnexpectedFileContentError,
  UnsupportedFileTypeError,
} from "music-metadata";
import { createHash } from "node:crypto";
import type { FileStorage } from "../lib/storage.ts";

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

async function digest(storage: FileStorage, key: string): Promise<{ size: number; checksum: string }> {
  const { body } = await storage.read(key);
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    hash.update(chunk);
  }
  return { size, checksum: hash.digest("hex") };
}

const text = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t.slice(0, 500) : null;
};

/**
 * Reads a stored upload twice as a stream (once for the SHA-256 and size, once for music-metadata),
 * so that no file is ever held in memory, and judges it. Content problems become a `failed` verdict;
 * anything else (storage or programming errors) is thrown so the job can be retried.
 */
export async function analyseTrack(storage: FileStorage, key: string): Promise<Verdict> {
  const stat = await storage.stat(key);
  if (!stat) return { status: "failed", error: PROCESSING_ERRORS.missing, discard: false };
  if (stat.size === 0) return { status: "failed", error: PROCESSING_ERRORS.empty, discard: true, size: 0 };

  const { size, checksum } = await digest(storage, key);
  const fail = (error: string) => ({ status: "failed" as const, error, discard: true, size, checksum });

  const { body } = await storage.read(key);
  let meta;
  try {
    // `duration: true` walks every frame, so a cut-off file gets its real length, not the header's.
    meta = await parseWebStream(body, { size }, { duration: true, skipCovers: true });
  } catch (err) {
    await body.cancel().catch(() => {});
    if (err instanceof CouldNotDetermineFileTypeError || err instanceof UnsupportedFileTypeError) {
      return fail(PROCESSING_ERRORS.notMp3);
    }
    if (isParseError(err)) return fail(PROCESSING_ERRORS.unreadable);
    throw err;
  }
  await body.cancel().catch(() => {});

  const { format, common } = meta;
  if (format.container !== "MPEG" || !/layer 3/i.test(format.codec ?? "")) {
    const found = format.codec && format.container === "MPEG" ? format.codec : format.container;
    return fail(found ? `${PROCESSING_ERRORS.notMp3.slice(0, -1)} (обнаружен формат ${found}).` : PROCESSING_ERRORS.notMp3);
  }
  // The frame walk counts the Xing/Info frame as audio (one frame too many), while the header's
  // length is wrong for a cut-off file: the shorter of the two is the real length.
  const counted = format.numberOfSamples && format.sampleRate ? format.numberOfSamples / format.sampleRate : undefined;
  const seconds = counted !== undefined && format.duration ? Math.min(counted, format.duration) : counted ?? format.duration;
  if (!seconds || !Number.isFinite(seconds) || seconds <= 0) return fail(PROCESSING_ERRORS.noAudio);

  return {
    status: "completed",
    facts: {
      size,
      checksum,
      duration: Math.round(seconds * 1000),
      bitrate: format.bitrate ? Math.round(format.bitrate) : null,
      sample_rate: format.sampleRate ?? null,
      channels: format.numberOfChannels ?? null,
      id3_artist: text(common.artist),
      id3_title: text(common.title),
    },
  };
}
