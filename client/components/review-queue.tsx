import { Link } from "@tanstack/react-router";
import "./review-queue.css";

/**
 * One direction's work as the dashboards answer it (issue 23, `review_queue`): tracks nobody has
 * decided (`new`), tracks held in the shortlist, and tracks past their direction's response promise
 * (`overdue`; 14 days until issue 25 made it a rule per direction).
 */
export interface ReviewQueueRow {
  direction: string;
  new: number;
  shortlisted: number;
  overdue: number;
  /** Pairs whose answer is the automatic decline of a promise not kept (issue 25). */
  auto_declined?: number;
}

export type ReviewQueueKind = "new" | "shortlisted" | "overdue";
const KINDS: readonly ReviewQueueKind[] = ["new", "shortlisted", "overdue"];

export interface ReviewQueueTexts {
  title: string;
  empty: string;
  kinds: Record<ReviewQueueKind, string>;
  /**
   * What a figure's link adds for screen readers after its visible words: the direction ("12 New
   * (Нейро)"). The visible words come first, so the name says what the eye reads (issue 31).
   */
  of: (direction: string) => string;
  /** Issue 25: the direction's automatic declines, shown under its figures when there are any. */
  autoDeclined: (count: number) => string;
}

export const REVIEW_QUEUE_TEXTS_RU: ReviewQueueTexts = {
  title: "Очередь рассмотрения",
  empty: "Нет направлений для рассмотрения",
  kinds: { new: "Новые", shortlisted: "В шорт-листе", overdue: "Просрочены" },
  of: (d) => ` (${d})`,
  autoDeclined: (n) => `Отклонено автоматически (срок ответа прошёл): ${n}`,
};

export const REVIEW_QUEUE_TEXTS_EN: ReviewQueueTexts = {
  title: "Review queue",
  empty: "No directions to review",
  kinds: { new: "New", shortlisted: "Shortlisted", overdue: "Overdue" },
  of: (d) => ` (${d})`,
  autoDeclined: (n) => `Declined automatically (promise passed): ${n}`,
};

/**
 * Where a figure leads (decision 0228): the track list filtered by the list's own address
 * parameters (features/staff-review/queue/track-list-search.ts). «Новые» is that direction's new tracks,
 * oldest first (the longest wait heads the queue); the shortlist is that direction's shortlisted
 * tracks; the overdue figure opens exactly the tracks it counts (`review=overdue`: awaiting a
 * decision, new or listened, and past the direction's response promise; issues 24, 25), oldest first.
 */
export function reviewQueueSearch(kind: ReviewQueueKind, direction: string) {
  if (kind === "shortlisted") return { direction, review: "shortlisted" };
  return { direction, review: kind === "new" ? "new" : "overdue", sort: "upload_date" };
}

/**
 * The dashboards' work per direction in the caller's scope (issue 23): new, shortlisted and overdue
 * counts, each a link opening the queue filtered that way.
 */
export function ReviewQueue(
  { rows, tracksPath, directionLabel, texts }: {
    rows: readonly ReviewQueueRow[];
    tracksPath: "/admin/tracks" | "/moderator/tracks";
    directionLabel: (code: string) => string;
    texts: ReviewQueueTexts;
  },
) {
  return (
    <section className="st-section" aria-labelledby="review-queue-title" data-testid="review-queue">
      <h2 id="review-queue-title">{texts.title}</h2>
      {rows.length === 0 ? <p className="st-empty">{texts.empty}</p> : (
        <ul className="st-queue">
          {rows.map((r) => {
            const label = directionLabel(r.direction);
            return (
              <li key={r.direction} className="st-queue-row" data-direction={r.direction}>
                <h3 className="st-queue-direction">{label}</h3>
                <div className="st-queue-figures">
                  {KINDS.map((kind) => (
                    <Link
                      key={kind}
                      to={tracksPath}
                      search={reviewQueueSearch(kind, r.direction) as never}
                      className={kind === "overdue" && r.overdue > 0 ? "st-queue-link st-queue-late" : "st-queue-link"}
                      data-kind={kind}
                    >
                      <span className="st-queue-count">{r[kind]}</span>{" "}
                      <span className="st-queue-kind">{texts.kinds[kind]}</span>
                      <span className="visually-hidden">{texts.of(label)}</span>
                    </Link>
                  ))}
                </div>
                {(r.auto_declined ?? 0) > 0 && (
                  <p className="st-queue-auto st-small st-muted" data-testid="auto-declined">
                    {texts.autoDeclined(r.auto_declined ?? 0)}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
