import type { DeclineReason } from "../../domain/decline-reasons.ts";
import { REASON_LABELS_RU, REASON_TEXTS_EN } from "../../domain/decline-reason-labels.ts";

/**
 * The feedback's figures on the dashboards (issue 37), under the response figures: per direction
 * and staff member the share of declines naming a reason, the reasons named most, and the artists'
 * average rating of the feedback given in the period. The administrator's answer also carries the
 * ratings' words (`rating_words`), shown with the staff member rated; the moderator's never does.
 */
interface ReasonFigures {
  declines: number;
  with_reasons: number;
  share: number | null;
  top: Array<{ reason: string; count: number }>;
}
interface RatingFigures {
  count: number;
  average: number | null;
}
interface Row {
  reasons?: ReasonFigures;
  ratings?: RatingFigures;
}
export interface FeedbackFiguresData {
  by_direction: Array<{ direction: string } & Row>;
  by_staff: Array<{ user: { id: number; name: string } } & Row>;
  rating_words?: Array<{ track_id: number; direction: string; staff_id: number | null; rating: number; words: string }>;
}

export interface FeedbackFiguresTexts {
  title: string;
  row: string;
  withReasons: string;
  topReasons: string;
  rating: string;
  words: string;
  reasons: Record<DeclineReason, string>;
  decimal: string;
}

export const FEEDBACK_FIGURES_TEXTS_RU: FeedbackFiguresTexts = {
  title: "Обратная связь артистам",
  row: "Кто / где",
  withReasons: "Отказы с причиной",
  topReasons: "Частые причины",
  rating: "Оценка артистов",
  words: "Отзывы артистов",
  reasons: REASON_LABELS_RU,
  decimal: ",",
};

export const FEEDBACK_FIGURES_TEXTS_EN: FeedbackFiguresTexts = {
  title: "Feedback to artists",
  row: "Who / where",
  withReasons: "Declines with a reason",
  topReasons: "Top reasons",
  rating: "Artists' rating",
  words: "Artists' words",
  reasons: REASON_TEXTS_EN,
  decimal: ".",
};

const pct = (r: ReasonFigures | undefined) =>
  !r || r.share === null ? "—" : `${Math.round(r.share * 100)}% (${r.with_reasons}/${r.declines})`;

export function FeedbackFigures({ figures, directionLabel, texts }: {
  figures: FeedbackFiguresData;
  directionLabel: (code: string) => string;
  texts: FeedbackFiguresTexts;
}) {
  const rows = [
    ...figures.by_direction.map((d) => ({ key: d.direction, label: directionLabel(d.direction), f: d as Row })),
    ...figures.by_staff.map((p) => ({ key: `user-${p.user.id}`, label: p.user.name, f: p as Row })),
  ];
  if (!rows.some((r) => r.f.reasons || r.f.ratings)) return null;
  const reasonName = (r: string) => texts.reasons[r as DeclineReason] ?? r;
  const average = (r: RatingFigures | undefined) =>
    !r || r.average === null ? "—" : `${r.average.toFixed(1).replace(".", texts.decimal)} (${r.count})`;
  const staffName = (id: number | null) => figures.by_staff.find((p) => p.user.id === id)?.user.name ?? "—";
  return (
    <>
      <h3 style={{ marginTop: 16 }}>{texts.title}</h3>
      <div className="st-table-wrap st-figures-wrap" tabIndex={0} role="region" aria-label={texts.title}>
        <table className="st-table st-figures-table">
          <caption className="visually-hidden">{texts.title}</caption>
          <thead>
            <tr>
              <th scope="col">{texts.row}</th>
              <th scope="col" className="st-figures-num">{texts.withReasons}</th>
              <th scope="col">{texts.topReasons}</th>
              <th scope="col" className="st-figures-num">{texts.rating}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-testid={`feedback-${r.key}`}>
                <th scope="row">{r.label}</th>
                <td className="st-figures-num" data-col="with-reasons">{pct(r.f.reasons)}</td>
                <td data-col="top-reasons">
                  {(r.f.reasons?.top ?? []).map((t) => `${reasonName(t.reason)} ${t.count}`).join(", ") || "—"}
                </td>
                <td className="st-figures-num" data-col="rating">{average(r.f.ratings)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {figures.rating_words && figures.rating_words.length > 0 && (
        <>
          <h3 style={{ marginTop: 16 }}>{texts.words}</h3>
          <ul className="st-rating-words" data-testid="rating-words">
            {figures.rating_words.map((w) => (
              <li key={`${w.track_id}-${w.direction}`}>
                <strong>{w.rating}/5</strong> · {staffName(w.staff_id)} · {directionLabel(w.direction)} · #{w.track_id}
                {": "}
                <span data-user-content="">{w.words}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
