import { DECLINE_REASONS } from "../../../../domain/decline-reasons.ts";
import "./feedback.css";
import { useFeedbackDeskTexts } from "../texts/feedback-texts.ts";
import type { DecisionDesk } from "./use-decision-desk.ts";

/**
 * The decline reasons as a row of toggles (issue 37), in the chooser after X (and the shortlist's),
 * before the templates: each under Shift and its number, sent with the template or Enter.
 */
export function ReasonToggles({ desk }: { desk: DecisionDesk }) {
  const t = useFeedbackDeskTexts();
  return (
    <div className="dk-reasons" role="group" aria-label={t.reasonsGroup} data-testid="reason-toggles">
      <span className="st-label dk-reasons-title">
        {t.reasonsGroup} <span className="st-muted st-small">{t.reasonsHint}</span>
      </span>
      <div className="dk-reasons-row">
        {DECLINE_REASONS.map((r, i) => (
          <button
            key={r}
            type="button"
            className="st-btn st-btn-sm dk-reason"
            aria-pressed={desk.reasons.includes(r)}
            aria-keyshortcuts={`Shift+${i + 1}`}
            data-reason={r}
            onClick={() => desk.toggleReason(r)}
          >
            <kbd aria-hidden="true">{i + 1}</kbd> {t.reasons[r]}
          </button>
        ))}
      </div>
    </div>
  );
}
