import { type ReactNode, useId } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { Field } from "../../../components/ui/field.tsx";
import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import { DESK_OUTCOMES, type DeskOutcome } from "../api/desk-queries.ts";
import { REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { DecisionDesk } from "./use-decision-desk.ts";
import { DeskConflictNotice, type DeskEndsContext, QueueDone, SilentHold } from "./desk-ends.tsx";
import "../edit/decision-panel.css";
import "./decision-dock.css";
import { TemplateChooser } from "./template-chooser.tsx";
import { useFeedbackDeskTexts } from "../texts/feedback-texts.ts";

/**
 * The decision dock under the player (issue 23): the three outcomes for the track playing, the
 * chooser of that outcome's ready-made messages, the message to the artist, the staff note, a
 * per-direction status where the track has several, the last decision's hold with its undo, and the
 * key legend. Every key has its button here (decision 0226). At 480 px and narrower the chooser,
 * the texts and the directions open as a sheet from the bottom (decision-dock.css); the three
 * outcome buttons stay in the bar.
 */

/** The admin panel's words of the dock (the moderator's come from the panel's dictionary). */
export const OUTCOME_LABELS: Record<DeskOutcome, string> = REVIEW_TEXTS_RU.desk.outcomes;
const OUTCOME_KEYS: Record<DeskOutcome, string> = { accepted: "A", shortlisted: "S", declined: "X" };
export const DESK_KEYS = REVIEW_TEXTS_RU.desk.keys;

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

export interface DecisionDockProps {
  desk: DecisionDesk;
  label: (d: Direction) => string;
  /** The caller's votes on the track playing (issue 24, `TrackVotes`), under the bar. */
  votes?: ReactNode;
  /** On a phone, what the compact bar leaves to the sheet (issue 31): comments, assignment, «from the drop». */
  sheetExtra?: ReactNode;
  /** The view done, a 409 and a silent hold (issue 31): their words and where the next views are. */
  ends?: DeskEndsContext & { skipped: number; onSkipped: () => void };
}

export function DecisionDock({ desk, label, votes, sheetExtra, ends }: DecisionDockProps) {
  const id = useId();
  const texts = useReviewTexts();
  const t = texts.desk;
  const feedbackTexts = useFeedbackDeskTexts();
  const { track, pairs, chooser } = desk;
  // On a phone the votes open with the sheet, so the bar keeps its one row of controls (0227).
  const phone = useMediaQuery(PHONE_QUERY);
  if (!track) return null;
  /** Esc in a field gives the keys back to the desk. */
  const escape = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.currentTarget.blur();
    }
  };
  return (
    <div className="dk-dock" data-testid="decision-dock">
      <div className="dk-bar">
        <div className="dk-outcomes" role="group" aria-label={t.decisionGroup}>
          {DESK_OUTCOMES.map((o) => (
            <button
              key={o}
              type="button"
              className={`st-btn dk-outcome dk-${o}`}
              aria-keyshortcuts={OUTCOME_KEYS[o]}
              aria-pressed={chooser === o}
              title={`${t.outcomes[o]} (${OUTCOME_KEYS[o]})`}
              disabled={!desk.ready}
              onClick={() => desk.choose(o)}
            >
              {t.outcomes[o]} <kbd aria-hidden="true">{OUTCOME_KEYS[o]}</kbd>
            </button>
          ))}
          <button
            type="button"
            className="st-btn st-btn-sm dk-more"
            aria-pressed={chooser === "shortlisted"}
            aria-label={t.shortlistWithTemplate}
            title={t.shortlistWithTemplate}
            disabled={!desk.ready}
            onClick={() => desk.choose("shortlisted", true)}
          >
            <span aria-hidden="true">…</span>
          </button>
        </div>
        <div className="dk-states" role="group" aria-label={t.statesGroup}>
          {pairs.length === 0
            ? <span className="st-muted st-small">{t.outsideCategories}</span>
            : pairs.map((d) => (
              <span key={d.direction} className={`dp-badge dp-${d.status}`}>
                {label(d.direction as Direction)}: {texts.states[d.status as keyof typeof texts.states] ?? d.status}
                {d.overdue && <span className="dk-overdue" data-testid="dock-overdue">{` · ${texts.overdue}`}</span>}
              </span>
            ))}
        </div>
        <div className="dk-status" aria-live="polite">
          {ends && <SilentHold desk={desk} ctx={ends} />}
          {desk.holding && desk.last && (!ends || desk.last.notifyAt !== null) && (
            <span className="dk-hold" data-testid="decision-hold">
              {t.quoted(desk.last.track.filename)}: {t.outcomeDone[desk.last.status]}
              {t.holdTold} <strong>{clock(desk.holdLeft)}</strong>
              <button
                type="button"
                className="st-btn st-btn-sm"
                aria-keyshortcuts="Z"
                onClick={() =>
                  void desk.undo(desk.last!)}
              >
                {t.undo} <kbd aria-hidden="true">Z</kbd>
              </button>
            </span>
          )}
          {!desk.holding && desk.last && (
            <span className="st-muted st-small">
              {t.quoted(desk.last.track.filename)}: {t.outcomeDone[desk.last.status]}
              {desk.last.notifyAt !== null ? t.sent : ""}
            </span>
          )}
          {desk.sending && <span className="st-muted st-small">{t.saving}</span>}
        </div>
        <div className="dk-tools">
          <button
            type="button"
            className="st-btn st-btn-sm dk-sheet-open"
            aria-expanded={desk.sheet}
            aria-controls={`${id}-sheet`}
            onClick={() => desk.setSheet(!desk.sheet)}
          >
            <span className="dk-sheet-open-label">{votes && phone ? t.sheetWithVotes : t.sheet}</span>
            <span className="dk-sheet-open-mark" aria-hidden="true">✉</span> <kbd aria-hidden="true">M</kbd>
          </button>
          <button
            type="button"
            className="st-btn st-btn-sm"
            aria-keyshortcuts="Shift+Slash"
            aria-expanded={desk.legend}
            aria-controls={`${id}-legend`}
            title={t.keysTitle}
            onClick={desk.toggleLegend}
          >
            {t.keysButton} <kbd aria-hidden="true">?</kbd>
          </button>
        </div>
      </div>

      {votes && !phone && <div className="dk-votes">{votes}</div>}

      {desk.error && <div className="st-alert st-alert-error dk-error" role="alert">{desk.error}</div>}
      {ends && <DeskConflictNotice desk={desk} ctx={ends} />}
      {ends && <QueueDone desk={desk} ctx={ends} skipped={ends.skipped} onSkipped={ends.onSkipped} />}

      <div id={`${id}-sheet`} className="dk-sheet" data-open={desk.sheet || chooser !== null || undefined}>
        <div className="dk-sheet-head">
          <strong className="dk-sheet-title" data-user-content="">{track.filename}</strong>
          <button type="button" className="st-btn st-btn-sm dk-sheet-close" onClick={desk.close}>
            {t.close} <kbd aria-hidden="true">Esc</kbd>
          </button>
        </div>
        {votes && phone && <div className="dk-votes">{votes}</div>}
        {chooser && <TemplateChooser desk={desk} chooser={chooser} filename={track.filename} label={label} />}
        <div className="dk-texts">
          <Field
            label={
              <>
                {t.message} <kbd aria-hidden="true">M</kbd>
              </>
            }
          >
            <textarea
              ref={desk.messageRef}
              className="st-input dk-text"
              rows={2}
              aria-keyshortcuts="M"
              value={desk.message}
              onChange={(e) => desk.setMessage(e.target.value)}
              onKeyDown={escape}
            />
          </Field>
          <Field
            label={
              <>
                {t.note} <kbd aria-hidden="true">N</kbd>
              </>
            }
          >
            <textarea
              ref={desk.noteRef}
              className="st-input dk-text"
              rows={2}
              aria-keyshortcuts="N"
              value={desk.note}
              onChange={(e) => desk.setNote(e.target.value)}
              onKeyDown={escape}
            />
          </Field>
        </div>
        {phone && sheetExtra}
        {pairs.length > 1 && (
          <fieldset className="dk-overrides">
            <legend className="st-label">{t.overrides}</legend>
            {pairs.map((d) => {
              const dir = d.direction as Direction;
              return (
                <label key={dir} className="dk-override">
                  <span>{label(dir)}</span>
                  <select
                    className="st-input"
                    value={desk.overrides[dir] ?? ""}
                    onChange={(e) => desk.setOverride(dir, e.target.value as DeskOutcome | "")}
                  >
                    <option value="">{t.sameAsAll}</option>
                    {DESK_OUTCOMES.map((o) => <option key={o} value={o}>{t.outcomes[o]}</option>)}
                  </select>
                </label>
              );
            })}
          </fieldset>
        )}
      </div>

      {desk.legend && (
        <section id={`${id}-legend`} className="dk-legend" aria-label={t.keysButton}>
          <dl>
            {[...t.keys, ...feedbackTexts.keys].map(([k, what]) => (
              <div key={k}>
                <dt>
                  <kbd>{k}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}
