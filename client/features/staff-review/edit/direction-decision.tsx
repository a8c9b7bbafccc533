import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import {
  DECISION_TEXT_MAX_LENGTH,
  decisionTextTooLong,
  REVIEW_STATUSES,
  type ReviewStatus,
} from "../../../../domain/review.ts";
import { charCount } from "../../../../domain/profile.ts";
import { Field } from "../../../components/ui/field.tsx";
import { ApiError } from "../../../lib/api.ts";
import { formatDate, formatDateTime } from "../../../lib/format.ts";
import { type DecisionBody, declineTemplatesQuery, useDecide } from "../api/decision-queries.ts";
import { panelErrorText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import "./decision-panel.css";
import type { StaffBase, StaffTrack } from "../../../lib/staff-queries.ts";

/**
 * One direction's decision form on the track page (issue 13, decision 0160): its state, the status,
 * staff note and message to the artist, and the one-step decline with a ready-made message.
 */

type Decision = StaffTrack["decisions"][number];

/** What is stored for a pair, as the form holds it (texts as "" for none). */
const savedOf = (d: Decision | undefined) => ({
  status: d?.status ?? "new",
  note: d?.note ?? "",
  message: d?.message ?? "",
  revision: d?.revision ?? 0,
});

export function DirectionDecision(
  { base: panelBase, tracksKey, trackId, direction, label, decision, editable }: {
    base: StaffBase;
    tracksKey: readonly string[];
    trackId: number;
    direction: Direction;
    label: string;
    decision: Decision | undefined;
    editable: boolean;
  },
) {
  const fid = useId();
  const words = useReviewTexts();
  const t = words.decisions;
  // The saved decision the form was made from: every write sends its revision (decision 0199).
  const [known, setKnown] = useState<Decision | undefined>(decision);
  const base = savedOf(known);
  const [status, setStatus] = useState<ReviewStatus>(base.status);
  const [note, setNote] = useState(base.note);
  const [message, setMessage] = useState(base.message);
  const [templateId, setTemplateId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decide = useDecide(panelBase, tracksKey);
  const templates = useQuery({ ...declineTemplatesQuery(panelBase), enabled: editable });
  // «Отклонить с шаблоном» offers the decline templates only (decision 0224).
  const list = (templates.data ?? []).filter((t) => (t.outcome ?? "declined") === "declined");
  const chosenTemplate = templateId || (list[0] ? String(list[0].id) : "");
  const tooLong = decisionTextTooLong(note.trim()) || decisionTextTooLong(message.trim());
  const edited = status !== base.status || note !== base.note || message !== base.message;

  /** The form shows `saved` (after a write, a refusal, or a newer read of an untouched form). */
  const show = (saved: Decision | undefined) => {
    const v = savedOf(saved);
    setKnown(saved);
    setStatus(v.status);
    setNote(v.note);
    setMessage(v.message);
  };
  const newer = (decision?.revision ?? 0) > base.revision;
  // A newer decision read while nobody is typing: the form follows what is saved. A form being
  // edited keeps its text and its revision; saving it then meets the 409 below.
  if (newer && !edited && !decide.isPending) show(decision);
  /** The newest decision known, for the badge and the byline. */
  const shown = newer ? decision : known;
  const current: ReviewStatus = shown?.status ?? "new";
  // Issue 25: the pair's promise as the track was read (null once decided).
  const promise = current === "new" || current === "listened" ? decision : undefined;

  const send = async (body: DecisionBody, doneText: string) => {
    setError(null);
    setDone(null);
    try {
      const answer = await decide.mutateAsync({ id: trackId, direction, body });
      show(answer.decision);
      setDone(doneText);
    } catch (err) {
      const stored = err instanceof ApiError && err.status === 409 ? err.body?.current : undefined;
      if (stored && typeof stored === "object") show(stored as Decision);
      setError(panelErrorText(words, err, t.saveFailed));
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (tooLong || decide.isPending) return;
    // The status only when it was changed here: saving a note never sends a status.
    void send({
      revision: base.revision,
      ...(status !== base.status ? { status } : {}),
      note: note.trim() || null,
      message: message.trim() || null,
    }, t.saved);
  };

  const declineWithTemplate = () => {
    if (!chosenTemplate || decide.isPending) return;
    void send(
      { revision: base.revision, status: "declined", note: note.trim() || null, template_id: Number(chosenTemplate) },
      t.declinedWithTemplate,
    );
  };

  return (
    <article className="dp-card" data-testid={`decision-${direction}`} aria-labelledby={`${fid}-h`}>
      <header className="dp-card-head">
        <h3 id={`${fid}-h`}>{label}</h3>
        <span className={`dp-badge dp-${current}`} data-testid="review-state">{words.states[current]}</span>
        {promise?.overdue && <span className="dp-badge dp-declined" data-testid="pair-overdue">{words.overdue}</span>}
      </header>
      {promise?.respond_by && (
        <p className="st-hint dp-meta" data-testid="respond-by">
          {t.promised(formatDate(promise.respond_by))}
        </p>
      )}
      {shown?.decided_at && (
        <p className="st-hint dp-meta" data-user-content="">
          {shown.decided_by?.name || shown.decided_by?.username || "—"}, {formatDateTime(shown.decided_at)}
        </p>
      )}
      {!editable && (
        <>
          {decision?.message && (
            <p className="dp-readonly">
              {t.readonlyMessage} <span data-user-content="">{decision.message}</span>
            </p>
          )}
          <p className="st-hint">{t.outside}</p>
        </>
      )}
      {editable && (
        <form onSubmit={submit} noValidate className="dp-form">
          {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
          {done && <div className="st-alert st-alert-success" role="status">{done}</div>}
          <Field label={t.status}>
            <select
              className="st-input"
              value={status}
              onChange={(e) => setStatus(e.target.value as ReviewStatus)}
            >
              {REVIEW_STATUSES.map((s) => <option key={s} value={s}>{words.states[s]}</option>)}
            </select>
          </Field>
          <DecisionText
            id={`${fid}-note`}
            label={t.note}
            value={note}
            onChange={setNote}
            tooLong={t.noteTooLong}
          />
          <DecisionText
            id={`${fid}-message`}
            label={t.message}
            value={message}
            onChange={setMessage}
            tooLong={t.messageTooLong}
          />
          <div className="st-form-actions dp-actions">
            <button type="submit" className="st-btn st-btn-primary" disabled={decide.isPending || tooLong}>
              {decide.isPending ? t.saving : t.save}
            </button>
          </div>
          {list.length > 0 && (
            <div className="dp-template-row">
              <Field label={t.template}>
                <select
                  className="st-input"
                  value={chosenTemplate}
                  onChange={(e) => setTemplateId(e.target.value)}
                >
                  {list.map((t) => <option key={t.id} value={String(t.id)}>{t.title}</option>)}
                </select>
              </Field>
              <button
                type="button"
                className="st-btn st-btn-danger"
                disabled={decide.isPending || decisionTextTooLong(note.trim())}
                onClick={declineWithTemplate}
              >
                {t.declineWithTemplate}
              </button>
            </div>
          )}
        </form>
      )}
    </article>
  );
}

function DecisionText(
  { id, label, value, onChange, tooLong }: {
    id: string;
    label: string;
    value: string;
    onChange: (v: string) => void;
    tooLong: string;
  },
) {
  const count = charCount(value.trim());
  const over = count > DECISION_TEXT_MAX_LENGTH;
  return (
    <div className="st-field">
      <label className="st-label" htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="st-input dp-text"
        rows={3}
        value={value}
        aria-invalid={over || undefined}
        aria-describedby={`${id}-count`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={`${id}-count`} className="st-hint" style={over ? { color: "var(--danger)" } : undefined}>
        {over ? tooLong : `${count} / ${DECISION_TEXT_MAX_LENGTH}`}
      </span>
    </div>
  );
}
