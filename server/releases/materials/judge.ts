/**
 * What a release file's check decides (issue 34; docs/decisions/0360): from the file's measured
 * facts and the accepted demo's length and fingerprint, the state (`accepted` or `refused`), the
 * Russian reason for the artist, and the report for staff. Pure: the pass that measures is
 * server/audio/analyse-lossless.ts, the job that runs it check.ts.
 */
import type { MaterialKind } from "../../../domain/release-material.ts";
import { HOP_SECONDS } from "../../audio/fingerprint-codes.ts";
import { bitErrorRate, MATCH_MAX_BER, MATCH_MIN_CODES, MATCH_MIN_SHARE } from "../../audio/fingerprint-compare.ts";
import type { LosslessFacts } from "../../audio/analyse-lossless.ts";
import type { PcmDecodeErrorCode, PcmFormat } from "../../audio/pcm-container.ts";

/** Rates taken as they are; a higher one is taken and noted for staff; any other refused. */
export const STANDARD_RATES = [44_100, 48_000] as const;
/** The highest rate taken (DXD is 352.8 kHz); past it the header is not believed. */
const MAX_RATE = 384_000;
/** A master (and an instrumental) may differ from the demo's length by at most this. */
export const DURATION_TOLERANCE_S = 5;
/** True peak above this is flagged for staff (not refused). */
export const TRUE_PEAK_FLAG_DBTP = -0.1;

export const MATERIAL_REASONS = {
  empty: "Файл пустой.",
  unknown: "Файл не распознан как WAV, FLAC или AIFF. Сохраните мастер в одном из этих форматов и загрузите снова.",
  broken: "Файл повреждён: звук в нём прочитать не удалось. Сохраните файл заново и загрузите снова.",
  codec: "Звук в файле сжат или записан в неподдерживаемом виде: нужен несжатый WAV или AIFF (PCM) либо FLAC.",
  silent: "В файле нет звука: он состоит из тишины.",
  missing: "Файл не найден в хранилище. Загрузите его ещё раз.",
  failed: "Не удалось проверить файл. Загрузите его ещё раз.",
  notSameRecording:
    "Это не та запись, что была принята: звучание файла не совпадает с принятым демо. Пришлите мастер принятого трека.",
} as const;

const rateKhz = (hz: number) => `${(hz / 1000).toLocaleString("ru-RU", { maximumFractionDigits: 3 })} кГц`;

/** m:ss, for the duration reasons. */
export function clock(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export const rateReason = (hz: number) =>
  `Частота дискретизации ${rateKhz(hz)} не подходит: нужна 44,1 или 48 кГц (выше тоже можно).`;

export const depthReason = (format: Pick<PcmFormat, "bits" | "encoding">) =>
  `Разрядность ${format.bits} бит${
    format.encoding === "float" ? " с плавающей точкой" : ""
  } не подходит: нужен PCM 16 или 24 бит либо 32 бит с плавающей точкой.`;

export const channelsReason = (n: number) => `В файле ${n} каналов: нужен стерео- или моно-файл.`;

export const tooLongReason = (minutes: number) => `Файл длиннее ${minutes} мин: такие длинные файлы не принимаются.`;

export const durationReason = (kind: MaterialKind, seconds: number, demo: number) =>
  kind === "extended"
    ? `Extended-версия (${clock(seconds)}) короче принятого демо (${clock(demo)}): она должна быть длиннее.`
    : `Длительность файла ${clock(seconds)} отличается от принятого демо (${
      clock(demo)
    }) больше чем на ${DURATION_TOLERANCE_S} с. Пришлите ${
      kind === "master" ? "мастер" : "инструментал"
    } той же версии трека.`;

/** The reason a format is refused for, before any sample is decoded; null when it is taken. */
export function formatProblem(format: PcmFormat): string | null {
  const intOk = format.encoding === "int" && (format.bits === 16 || format.bits === 24);
  const floatOk = format.encoding === "float" && format.bits === 32;
  if (!intOk && !floatOk) return depthReason(format);
  const rate = format.sampleRate;
  const taken = (STANDARD_RATES as readonly number[]).includes(rate) || (rate > 48_000 && rate <= MAX_RATE);
  if (!taken) return rateReason(rate);
  if (format.channels < 1 || format.channels > 2) return channelsReason(format.channels);
  return null;
}

export function decodeReason(code: PcmDecodeErrorCode): string {
  return MATERIAL_REASONS[code];
}

/** The demo the file is compared with. */
export interface DemoFacts {
  /** Seconds; null when the demo has no length recorded. */
  duration_s: number | null;
  /** The demo's fingerprint; null when neither stored nor readable. */
  fingerprint: Uint32Array | null;
}

export interface FingerprintMatch {
  /** null: could not be compared (the demo's fingerprint is missing or too short). */
  same: boolean | null;
  /** The best bit error rate found (0–1, three decimals); null when nothing was compared. */
  ber: number | null;
  /** Where the file's audio lies against the demo's, in seconds (positive: the file starts later in the music). */
  offset_s: number | null;
}

function sounding(codes: Uint32Array): number {
  let n = 0;
  for (const c of codes) if (c !== 0) n++;
  return n;
}

/**
 * The same recording at any offset (an extended mix has a longer intro): `matchAt`'s rule from
 * fingerprint.ts (at most MATCH_MAX_BER of the bits differ, over MATCH_MIN_CODES codes and
 * MATCH_MIN_SHARE of the shorter one's), tried at every offset instead of the ones an index voted for.
 */
export function compareFingerprints(demo: Uint32Array | null, file: Uint32Array): FingerprintMatch {
  if (!demo || sounding(demo) < MATCH_MIN_CODES) return { same: null, ber: null, offset_s: null };
  const needed = Math.max(MATCH_MIN_CODES, MATCH_MIN_SHARE * Math.min(sounding(demo), sounding(file)));
  let best: { ber: number; offset: number } | null = null;
  for (let offset = -file.length; offset <= demo.length; offset++) {
    const { ber, compared } = bitErrorRate(demo, file, offset);
    if (compared >= needed && (best === null || ber < best.ber)) best = { ber, offset };
  }
  if (best === null) return { same: false, ber: null, offset_s: null };
  return {
    same: best.ber <= MATCH_MAX_BER,
    ber: Math.round(best.ber * 1000) / 1000,
    offset_s: Math.round(best.offset * HOP_SECONDS * 10) / 10 + 0,
  };
}

/** The check's figures, as staff read them (`report` of the material). */
export interface MaterialReport {
  container: PcmFormat["container"];
  encoding: PcmFormat["encoding"];
  bits: number;
  sample_rate_hz: number;
  channels: number;
  duration_s: number | null;
  demo_duration_s: number | null;
  loudness_lufs: number | null;
  true_peak_dbtp: number | null;
  clipped_samples: number | null;
  fingerprint: FingerprintMatch;
  /**
   * For staff: `high_sample_rate` (above 48 kHz, taken), `true_peak_over` (above −0.1 dBTP),
   * `clipped` (clipped samples found), `fingerprint_unavailable` (the demo could not be compared).
   */
  flags: string[];
}

export interface Verdict {
  state: "accepted" | "refused";
  reason: string | null;
  report: MaterialReport | null;
}

/** The report of a format refused before decoding. */
export function formatOnlyReport(format: PcmFormat, demo: DemoFacts): MaterialReport {
  return {
    container: format.container,
    encoding: format.encoding,
    bits: format.bits,
    sample_rate_hz: format.sampleRate,
    channels: format.channels,
    duration_s: format.declaredFrames === null ? null : Math.round(format.declaredFrames / format.sampleRate * 10) / 10,
    demo_duration_s: demo.duration_s,
    loudness_lufs: null,
    true_peak_dbtp: null,
    clipped_samples: null,
    fingerprint: { same: null, ber: null, offset_s: null },
    flags: [],
  };
}

/** The decision on a decoded file. `maxMinutes`: the longest file taken (`cut` past it). */
export function judge(kind: MaterialKind, facts: LosslessFacts, demo: DemoFacts, maxMinutes: number): Verdict {
  const f = facts.format;
  const match = compareFingerprints(demo.fingerprint, facts.fingerprint);
  const flags: string[] = [];
  if (f.sampleRate > 48_000) flags.push("high_sample_rate");
  if (facts.true_peak_dbtp !== null && facts.true_peak_dbtp > TRUE_PEAK_FLAG_DBTP) flags.push("true_peak_over");
  if (facts.clipped_samples > 0) flags.push("clipped");
  if (match.same === null) flags.push("fingerprint_unavailable");
  const report: MaterialReport = {
    ...formatOnlyReport(f, demo),
    duration_s: facts.duration_s,
    loudness_lufs: facts.loudness_lufs,
    true_peak_dbtp: facts.true_peak_dbtp,
    clipped_samples: facts.clipped_samples,
    fingerprint: match,
    flags,
  };
  const refuse = (reason: string): Verdict => ({ state: "refused", reason, report });
  if (facts.cut) return refuse(tooLongReason(maxMinutes));
  if (facts.true_peak_dbtp === null) return refuse(MATERIAL_REASONS.silent);
  if (demo.duration_s !== null) {
    const diff = facts.duration_s - demo.duration_s;
    const off = kind === "extended" ? diff < -DURATION_TOLERANCE_S : Math.abs(diff) > DURATION_TOLERANCE_S;
    if (off) return refuse(durationReason(kind, facts.duration_s, demo.duration_s));
  }
  if (match.same === false) return refuse(MATERIAL_REASONS.notSameRecording);
  return { state: "accepted", reason: null, report };
}
