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
