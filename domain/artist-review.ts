/**
 * The review states the artist sees (spec 1 §5): the staff's working states are folded (`new` →
 * `in_review`, `shortlisted` → `listened`; domain/review.ts `artistReviewStatus`). Kept apart from
 * domain/review.ts so the public history page imports only these labels (decision 0266).
 */
export const ARTIST_REVIEW_STATUSES = ["in_review", "listened", "accepted", "declined"] as const;
export type ArtistReviewStatus = (typeof ARTIST_REVIEW_STATUSES)[number];

export const ARTIST_REVIEW_LABELS: Record<ArtistReviewStatus, string> = {
  in_review: "На рассмотрении",
  listened: "Прослушан",
  accepted: "Принят",
  declined: "Отклонён",
};
