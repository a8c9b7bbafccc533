import { formatDateTime } from "../../lib/format.ts";
import type { StaffTrack } from "../../lib/staff-queries.ts";

type DuplicateOf = NonNullable<StaffTrack["duplicate_of"]>;

/**
 * The staff line under a track accepted as a copy of another person's upload (issue 20, decision
 * 0206): «тот же файл, что трек #N от @X (дата)». Once that track is deleted only its number is
 * known; a track without an owner has no «от @X».
 */
export function duplicateNoteText(dup: DuplicateOf): string {
  if (dup.deleted) return `тот же файл, что трек #${dup.id} (трек удалён)`;
  const from = dup.username ? ` от @${dup.username}` : "";
  return `тот же файл, что трек #${dup.id}${from} (${formatDateTime(dup.upload_date)})`;
}

export function DuplicateNote({ of }: { of: DuplicateOf | null | undefined }) {
  if (!of) return null;
  return <p className="dp-duplicate" role="note">{duplicateNoteText(of)}</p>;
}

type SameAudioAs = NonNullable<StaffTrack["same_audio_as"]>;

/**
 * The staff line under a track whose audio matches an earlier track of another person (issue 25,
 * decision 0248): «та же запись, что трек #N от @X, дата». Once that track is deleted only its number
 * is known; a track without an owner has no «от @X».
 */
export function sameAudioNoteText(same: SameAudioAs): string {
  if (same.upload_date === null) return `та же запись, что трек #${same.track_id} (трек удалён)`;
  const from = same.username ? ` от @${same.username}` : "";
  return `та же запись, что трек #${same.track_id}${from}, ${formatDateTime(same.upload_date)}`;
}

export function SameAudioNote({ of }: { of: SameAudioAs | null | undefined }) {
  if (!of) return null;
  return <p className="dp-duplicate" role="note">{sameAudioNoteText(of)}</p>;
}
