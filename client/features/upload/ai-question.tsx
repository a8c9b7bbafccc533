import { useId, useState } from "react";
import {
  AI_RULE_TEXT,
  AI_USE_LABELS,
  AI_USE_QUESTION,
  AI_USE_TEXTS,
  AI_USE_VALUES,
  type AiUse,
} from "../../../domain/ai-use.ts";
import { AlertIcon } from "../../components/icons.tsx";
import "./ai-question.css";

/** What the form holds of the AI question: the answer, and for «Да» the ticked confirmation. */
export interface AiAnswer {
  value: AiUse | null;
  confirmed: boolean;
}

export const NO_AI_ANSWER: AiAnswer = { value: null, confirmed: false };

/** The batch may go once the question is answered, and «Да» confirmed (decision 0246). */
export function aiAnswerReady(a: AiAnswer): boolean {
  return a.value !== null && (a.value !== "yes" || a.confirmed);
}

/** The form's state of the question; `reset` asks it again for the next batch. */
export function useAiAnswer() {
  const [answer, setAnswer] = useState<AiAnswer>(NO_AI_ANSWER);
  return {
    answer,
    ready: aiAnswerReady(answer),
    choose: (value: AiUse) => setAnswer((a) => ({ value, confirmed: value === "yes" ? a.confirmed : false })),
    confirm: (confirmed: boolean) => setAnswer((a) => ({ ...a, confirmed })),
    reset: () => setAnswer(NO_AI_ANSWER),
  };
}

interface Props {
  answer: AiAnswer;
  onChoose(value: AiUse): void;
  onConfirm(confirmed: boolean): void;
  disabled?: boolean;
  /** Say what is missing (the rest of the form is ready, so the button waits for this alone). */
  prompt?: boolean;
}

/**
 * «Использовался ли ИИ при создании трека?» (issue 25), asked once per batch: Нет / Частично / Да as a
 * required radio group. «Да» shows the site's rule (AI-generated tracks lead to a ban) and asks
 * for a confirmation before the upload can go. The answer is sent as `ai_use`; staff see it.
 */
export function AiQuestion({ answer, onChoose, onConfirm, disabled, prompt }: Props) {
  const id = useId();
  const missing = answer.value === null
    ? AI_USE_TEXTS.required
    : answer.value === "yes" && !answer.confirmed
    ? AI_USE_TEXTS.confirmRequired
    : null;
  const hintId = `${id}-hint`;
  const showHint = prompt && missing === AI_USE_TEXTS.required;
  return (
    <fieldset
      className="fieldset ai-question"
      role="radiogroup"
      aria-required="true"
      aria-describedby={showHint ? hintId : undefined}
      data-testid="ai-question"
    >
      <legend>
        {AI_USE_QUESTION}
        <span className="ai-required" aria-hidden="true">*</span>
      </legend>
      <div className="ai-answers">
        {AI_USE_VALUES.map((value) => {
          const checked = answer.value === value;
          return (
            <label key={value} className={checked ? "check check-checked" : "check"}>
              <input
                type="radio"
                name="ai_use"
                value={value}
                required
                checked={checked}
                disabled={disabled}
                onChange={() => onChoose(value)}
              />
              <span>{AI_USE_LABELS[value]}</span>
            </label>
          );
        })}
      </div>
      {showHint && <p className="ai-hint" id={hintId}>{AI_USE_TEXTS.required}</p>}
      {answer.value === "yes" && (
        <div className="ai-rule" role="note" aria-labelledby={`${id}-rule-title`}>
          <p className="ai-rule-text">
            <AlertIcon size={18} />
            <span>
              <strong id={`${id}-rule-title`}>{AI_USE_TEXTS.ruleTitle}:</strong> {AI_RULE_TEXT}
            </span>
          </p>
          <label className={answer.confirmed ? "check check-checked ai-confirm" : "check ai-confirm"}>
            <input
              type="checkbox"
              required
              aria-describedby={answer.confirmed ? undefined : `${id}-confirm-hint`}
              checked={answer.confirmed}
              disabled={disabled}
              onChange={(e) => onConfirm(e.currentTarget.checked)}
            />
            <span>{AI_USE_TEXTS.confirm}</span>
          </label>
          {!answer.confirmed && <p className="ai-hint" id={`${id}-confirm-hint`}>{AI_USE_TEXTS.confirmRequired}</p>}
        </div>
      )}
    </fieldset>
  );
}
