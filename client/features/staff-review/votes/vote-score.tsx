import type { VoteSummary } from "./vote-queries.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";

/**
 * The queue's score of a row (issue 24, decisions 0229, 0230): per direction in the caller's scope
 * the sum of the votes («+2») and how many voted («· 3»), «?» while the caller has not voted and so
 * may not see them, and «второе мнение» where the pair needs a second ear. Nothing at all while
 * nobody has voted.
 */
export function VoteScore(
  { summary = [], label }: {
    /** Left out by an older answer (a cached row from before the votes): nothing to show. */
    summary?: readonly VoteSummary[];
    label: (d: string) => string;
    locale: string;
  },
) {
  const t = useReviewTexts().votes;
  // Several directions in the caller's scope: each badge names its direction.
  const many = summary.length > 1;
  const voted = summary.filter((s) => s.count > 0);
  if (voted.length === 0) return null;
  return (
    <span className="st-badges" data-testid="vote-score">
      {voted.map((s) => {
        const score = s.score === null ? "?" : s.score > 0 ? `+${s.score}` : s.score < 0 ? `−${-s.score}` : "0";
        const tone = s.score === null ? "" : s.score > 0 ? " st-badge-success" : s.score < 0 ? " st-badge-danger" : "";
        const hidden = s.score === null ? t.scoreHidden : t.score(score);
        return (
          <span key={s.direction} className="st-vote-pair">
            <span
              className={`st-badge st-vote-score${tone}`}
              data-score={s.score ?? ""}
              title={`${many ? `${label(s.direction)}: ` : ""}${hidden}, ${t.count}: ${s.count}`}
            >
              {many && <span>{label(s.direction)}</span>}
              <strong>{score}</strong>
              <span className="st-muted">{`· ${s.count}`}</span>
              <span className="visually-hidden">{`, ${hidden}, ${t.count}: ${s.count}`}</span>
            </span>
            {s.second_ear && <span className="st-badge st-badge-warning st-vote-ear">{t.secondEar}</span>}
          </span>
        );
      })}
    </span>
  );
}
