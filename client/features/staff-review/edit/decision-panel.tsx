import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { type Direction, parseDirections } from "../../../../domain/directions.ts";
import {
  DECISION_TEXT_MAX_LENGTH,
  decisionTextTooLong,
  REVIEW_STATUSES,
  type ReviewStatus,
} from "../../../../domain/review.ts";
import { charCount } from "../../../../domain/profile.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDate, formatDateTime } from "../../../lib/format.ts";
import { type DecisionBody, declineTemplatesQuery, useDecide } from "../api/decision-queries.ts";
import { ListeningList } from "./listening-list.tsx";
import { DuplicateNote, SameAudioNote } from "./duplicate-note.tsx";
import { AiUseBadge } from "../queue/ai-use-badge.tsx";
import { panelErrorText, REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import "./decision-panel.css";
import type { StaffBase, StaffTrack } from "../../../lib/staff-queries.ts";

/**
 * The review of one track on the staff track page (issue 13, decision 0160): per direction its
 * state, a decision form (status, staff note, message to the artist) and the one-step decline with
 * a ready-made message; below, who of the staff listened how long (issue 20) and the track's
 * decision history. Words from the panel's dictionary (review-texts.ts).
 */

type Decision = StaffTrack["decisions"][number];
type HistoryEntry = StaffTrack["decision_history"][number];

export interface DecisionPanelProps {
  base: StaffBase;
  /** The panel's track query key prefix, refreshed after a decision. */
  tracksKey: readonly string[];
  track: StaffTrack;
  label: (d: Direction) => string;
  /** False for a direction outside the moderator's categories: its state is shown, not editable. */
  canDecide: (d: Direction) => boolean;
}

export function DecisionPanel({ base, tracksKey, track, label, canDecide }: DecisionPanelProps) {
  const headingId = useId();
  const t = useReviewTexts().decisions;
  const directions = parseDirections(track.directions);
  const byDirection = new Map<string, Decision>((track.decisions ?? []).map((d) => [d.direction, d]));
  return (
    <section className="st-section dp-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="dp-title">{t.title}</h2>
      <DuplicateNote of={track.duplicate_of} />
      <SameAudioNote of={track.same_audio_as} />
      <p className="dp-ai-use">
        <AiUseBadge value={track.ai_use} detail />
      </p>
      <div className="dp-list">
        {directions.map((d) => (
          <DirectionDecision
            key={d}
            base={base}
            tracksKey={tracksKey}
            trackId={track.id}
            direction={d}
            label={label(d)}
            decision={byDirection.get(d)}
            editable={canDecide(d)}
          />
        ))}
      </div>
      <ListeningList
        listens={track.listens}
        durationS={track.analysis?.duration_s ?? (track.duration ? track.duration / 1000 : null)}
      />
      <DecisionHistory entries={track.decision_history ?? []} label={label} />
    </section>
  );
}

/** What is stored for a pair, as the form holds it (texts as "" for none). */
const savedOf = (d: Decision | undefined) => ({
  status: d?.status ?? "new",
  note: d?.note ?? "",
  message: d?.message ?? "",
  revision: d?.revision ?? 0,
});

function DirectionDecision(
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
          <div className="st-field">
            <label className="st-label" htmlFor={`${fid}-status`}>{t.status}</label>
            <select
              id={`${fid}-status`}
              className="st-input"
              value={status}
              onChange={(e) => setStatus(e.target.value as ReviewStatus)}
            >
              {REVIEW_STATUSES.map((s) => <option key={s} value={s}>{words.states[s]}</option>)}
            </select>
          </div>
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
              <div className="st-field">
                <label className="st-label" htmlFor={`${fid}-template`}>{t.template}</label>
                <select
                  id={`${fid}-template`}
                  className="st-input"
                  value={chosenTemplate}
                  onChange={(e) => setTemplateId(e.target.value)}
                >
                  {list.map((t) => <option key={t.id} value={String(t.id)}>{t.title}</option>)}
                </select>
              </div>
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

/** Issue 25: who made an automatic decline (a pair left past its promise and the grace). */
export const AUTOMATIC_LABEL = REVIEW_TEXTS_RU.decisions.automatic;

/**
 * Who, when, from, to, note (and the message the artist got), oldest first as the server answers.
 * An automatic decline (issue 25) says so where the person would be.
 * Where the panel is narrower than the table needs (a phone), each change is shown as a card of
 * labelled lines (decision-panel.css, decision 0207): no scrolling region, no word split inside.
 */
export function DecisionHistory(
  { entries, label }: { entries: readonly HistoryEntry[]; label: (d: Direction) => string },
) {
  const headingId = useId();
  const words = useReviewTexts();
  const t = words.decisions;
  return (
    <div className="dp-history">
      <h3 id={headingId}>{t.history}</h3>
      {entries.length === 0 ? <p className="st-muted">{t.noHistory}</p> : (
        <div className="st-table-wrap">
          <table className="st-table dp-history-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.who}</th>
                <th scope="col">{t.direction}</th>
                <th scope="col">{t.from}</th>
                <th scope="col">{t.to}</th>
                <th scope="col">{t.note}</th>
                <th scope="col">{t.message}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((h) => (
                <tr key={h.id}>
                  <td data-label={t.when}>{formatDateTime(h.decided_at)}</td>
                  <td data-label={t.who}>
                    {h.automatic
                      ? (
                        <span className="st-badge st-badge-warning" data-testid="history-automatic">
                          {t.automatic}
                        </span>
                      )
                      : h.decided_by?.name || h.decided_by?.username || "—"}
                  </td>
                  <td data-label={t.direction}>{label(h.direction as Direction)}</td>
                  <td data-label={t.from}>{words.states[h.from as ReviewStatus] ?? h.from}</td>
                  <td data-label={t.to}>{words.states[h.to as ReviewStatus] ?? h.to}</td>
                  <td data-label={t.note} data-user-content="">{h.note ?? "—"}</td>
                  <td data-label={t.message} data-user-content="">{h.message ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
