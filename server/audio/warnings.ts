/**
 * The pure rule that picks an analysed track's warnings from its figures. The codes and their
 * Russian texts for the UI live in domain/audio-warnings.ts (re-exported here).
 */
import { DNB_MAX_BPM, DNB_MIN_BPM } from "../../domain/tempo.ts";
import type { AudioWarning } from "../../domain/audio-warnings.ts";

// The codes and their texts live in domain/ so the client shows them without server code.
export { AUDIO_WARNING_TEXTS, type AudioWarning } from "../../domain/audio-warnings.ts";

export const MIN_BITRATE_KBPS = 320;
export const MIN_LOUDNESS_LUFS = -14;
/** Shortest audio with a whole 400 ms loudness block: below it "no loudness" says nothing. */
const LOUDNESS_BLOCK_S = 0.4;

export interface WarningInput {
  bitrate_kbps: number;
  clipped_samples: number;
  /** null: no 400 ms block above -70 LUFS. */
  loudness_lufs: number | null;
  /** Folded tempo; null when none was found. */
  bpm: number | null;
  duration_s: number;
}

/**
 * - low_bitrate: the (average) bitrate under 320 kbps;
 * - clipping: any clipped sample (clipping.ts says which count);
 * - too_quiet: integrated loudness under -14 LUFS, or none at all (silence) in a file long enough
 *   to have one;
 * - tempo_outside_dnb: a tempo was found and, after folding, lies outside 160–190 BPM (domain/tempo.ts
 *   tells the one story of both tempo warnings). No tempo is no warning: we could not measure it,
 *   and saying it is out of range would be a guess.
 */
export function warningsFor(a: WarningInput): AudioWarning[] {
  const out: AudioWarning[] = [];
  if (a.bitrate_kbps < MIN_BITRATE_KBPS) out.push("low_bitrate");
  if (a.clipped_samples > 0) out.push("clipping");
  if (a.loudness_lufs === null ? a.duration_s >= LOUDNESS_BLOCK_S : a.loudness_lufs < MIN_LOUDNESS_LUFS) {
    out.push("too_quiet");
  }
  if (a.bpm !== null && (a.bpm < DNB_MIN_BPM || a.bpm > DNB_MAX_BPM)) out.push("tempo_outside_dnb");
  return out;
}
