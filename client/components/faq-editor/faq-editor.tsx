import { useId } from "react";
import { type FaqFormValue, faqOrderValid, formatAnswer, sanitizeAnswerHtml } from "./faq-format.ts";
import "../ui/staff.css";

export interface FaqEditorTexts {
  order: string;
  orderHelp: string;
  orderError: string;
  question: string;
  answer: string;
  answerHelp: string;
  preview: string;
  questionPlaceholder: string;
  answerPlaceholder: string;
}

export const FAQ_EDITOR_TEXTS_RU: FaqEditorTexts = {
  order: "Порядок",
  orderHelp: "Определяет порядок отображения",
  orderError: "Порядок должен быть больше 0",
  question: "Вопрос",
  answer: "Ответ",
  answerHelp: "Пустая строка начинает новый абзац, одиночный перенос — новую строку. Допускается простой HTML.",
  preview: "Предпросмотр",
  questionPlaceholder: "Здесь появится вопрос",
  answerPlaceholder: "Здесь появится ответ",
};

export const FAQ_EDITOR_TEXTS_EN: FaqEditorTexts = {
  order: "Order",
  orderHelp: "Sets display order",
  orderError: "Order must be greater than 0",
  question: "Question",
  answer: "Answer",
  answerHelp: "Basic HTML allowed",
  preview: "Preview",
  questionPlaceholder: "Question will appear here",
  answerPlaceholder: "Answer will appear here",
};

/**
 * How the answer text becomes the shown HTML: "paragraphs" (the admin editor: blank line =
 * paragraph, newline = line break) or "html" (the moderator editor: the text is HTML already).
 */
export type AnswerMode = "paragraphs" | "html";

export function answerHtml(answer: string, mode: AnswerMode): string {
  return sanitizeAnswerHtml(mode === "paragraphs" ? formatAnswer(answer) : answer);
}

interface FaqFieldsProps {
  value: FaqFormValue;
  onChange: (value: FaqFormValue) => void;
  disabled?: boolean;
  answerRows?: number;
  texts?: FaqEditorTexts;
}

export function FaqFields({ value, onChange, disabled, answerRows = 5, texts = FAQ_EDITOR_TEXTS_RU }: FaqFieldsProps) {
  const id = useId();
  const orderInvalid = value.order !== "" && !faqOrderValid(value.order);
  return (
    <div className="st-stack">
      <div className="st-field">
        <label htmlFor={`${id}-order`}>{texts.order}</label>
        <input
          id={`${id}-order`}
          className="st-input"
          type="number"
          min={1}
          step={1}
          required
          value={value.order}
          disabled={disabled}
          aria-invalid={orderInvalid}
          aria-describedby={`${id}-order-help`}
          onChange={(e) => onChange({ ...value, order: e.target.value })}
        />
        <small id={`${id}-order-help`} className="st-hint">{orderInvalid ? texts.orderError : texts.orderHelp}</small>
      </div>
      <label className="st-field" htmlFor={`${id}-question`}>
        <span>{texts.question}</span>
        <input
          id={`${id}-question`}
          className="st-input"
          required
          value={value.question}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, question: e.target.value })}
        />
      </label>
      <div className="st-field">
        <label htmlFor={`${id}-answer`}>{texts.answer}</label>
        <textarea
          id={`${id}-answer`}
          className="st-textarea"
          required
          rows={answerRows}
          value={value.answer}
          disabled={disabled}
          aria-describedby={`${id}-answer-help`}
          onChange={(e) => onChange({ ...value, answer: e.target.value })}
        />
        <small id={`${id}-answer-help`} className="st-hint">{texts.answerHelp}</small>
      </div>
    </div>
  );
}

interface FaqPreviewProps {
  question: string;
  answer: string;
  mode: AnswerMode;
  texts?: FaqEditorTexts;
}

/** Live preview of an entry as the public FAQ shows it. */
export function FaqPreview({ question, answer, mode, texts = FAQ_EDITOR_TEXTS_RU }: FaqPreviewProps) {
  const html = answer.trim() ? answerHtml(answer, mode) : "";
  return (
    <section className="st-preview" aria-label={texts.preview}>
      <p className="st-label" style={{ margin: "0 0 10px" }}>{texts.preview}</p>
      <h3
        className={question.trim() ? undefined : "st-placeholder"}
        data-user-content={question.trim() ? "" : undefined}
      >
        {question.trim() || texts.questionPlaceholder}
      </h3>
      {html
        ? (
          <div
            className="st-preview-body"
            data-testid="faq-preview-body"
            data-user-content=""
            dangerouslySetInnerHTML={{ __html: html }}
          />
        )
        : <p className="st-preview-body st-placeholder">{texts.answerPlaceholder}</p>}
    </section>
  );
}
