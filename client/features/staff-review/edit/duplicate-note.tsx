import { formatDateTime } from "../../../lib/format.ts";
import type { StaffTrack } from "../../../lib/staff-queries.ts";
import { type DuplicateTexts, REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";

type DuplicateOf = NonNullable<StaffTrack["duplicate_of"]>;

/**
 * The staff line under a track accepted as a copy of another person's upload (issue 20, decision
 * 0206): «тот же файл, что трек #N от @X (дата)». Once that track is deleted only its number is
 * known; a track without an owner has no «от @X».
 */
export function duplicateNoteText(dup: DuplicateOf, t: DuplicateTexts = REVIEW_TEXTS_RU.duplicate): string {
  return t.sameFile(dup.id, dup.username ?? null, dup.deleted ? null : formatDateTime(dup.upload_date));
}

export function DuplicateNote({ of }: { of: DuplicateOf | null | undefined }) {
  const t = useReviewTexts().duplicate;
  if (!of) return null;
  return <p className="dp-duplicate" role="note">{duplicateNoteText(of, t)}</p>;
}

type SameAudioAs = NonNullable<StaffTrack["same_audio_as"]>;

/**
 * The staff line under a track whose audio matches an earlier track of another person (issue 25,
 * decision 0248): «та же запись, что трек #N от @X, дата». Once that track is deleted only its number
 * is known; a track without an owner has no «от @X».
 */
export function sameAudioNoteText(same: SameAudioAs, t: DuplicateTexts = REVIEW_TEXTS_RU.duplicate): string {
  return t.sameAudio(
    same.track_id,
    same.username ?? null,
    same.upload_date === null ? null : formatDateTime(same.upload_date),
  );
}

export function SameAudioNote({ of }: { of: SameAudioAs | null | undefined }) {
  const t = useReviewTexts().duplicate;
  if (!of) return null;
  return <p className="dp-duplicate" role="note">{sameAudioNoteText(of, t)}</p>;
}

/**
 * The staff line under a track that is another version of an earlier one (issue 38, decision 0422):
 * «похоже на другую версию трека #N» (an instrumental, another mix; not the same recording).
 */
export function SimilarVersionNote({ of }: { of: number | null | undefined }) {
  const t = useReviewTexts().duplicate;
  if (of === null || of === undefined) return null;
  return <p className="dp-duplicate" role="note">{t.similarVersion(of)}</p>;
}
