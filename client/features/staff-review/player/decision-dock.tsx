import { type ReactNode, useEffect, useId, useRef } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { templateMessage } from "../../../../domain/decision-message.ts";
import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import { DESK_OUTCOMES, type DeskOutcome } from "../desk-queries.ts";
import { PAIR_OVERDUE_LABEL } from "../review-badges.tsx";
import type { DecisionDesk } from "./use-decision-desk.ts";
import { DeskConflictNotice, type DeskEndsContext, QueueDone, SilentHold } from "./desk-ends.tsx";
import "../decision-panel.css";
import "./decision-dock.css";

/**
 * The decision dock under the player (issue 23): the three outcomes for the track playing, the
 * chooser of that outcome's ready-made messages, the message to the artist, the staff note, a
 * per-direction status where the track has several, the last decision's hold with its undo, and the
 * key legend. Every key has its button here (decision 0226). At 480 px and narrower the chooser,
 * the texts and the directions open as a sheet from the bottom (decision-dock.css); the three
 * outcome buttons stay in the bar.
 */

export const OUTCOME_LABELS: Record<DeskOutcome, string> = {
  accepted: "Принять",
  shortlisted: "В шорт-лист",
  declined: "Отклонить",
};
const OUTCOME_KEYS: Record<DeskOutcome, string> = { accepted: "A", shortlisted: "S", declined: "X" };
const CHOOSER_TITLES: Record<DeskOutcome, string> = {
  accepted: "Принять: готовое сообщение",
  shortlisted: "В шорт-лист: готовое сообщение",
  declined: "Отклонить: готовое сообщение",
};
const STATE_LABELS: Record<string, string> = {
  new: "Новый",
  listened: "Прослушан",
  shortlisted: "В шорт-листе",
  accepted: "Принят",
  declined: "Отклонён",
};

export const DESK_KEYS: readonly [string, string][] = [
  ["Пробел", "пауза / продолжить"],
  ["J / K", "следующий / предыдущий трек"],
  ["← / →", "на 5 секунд назад / вперёд"],
  ["D", "к дропу"],
  ["A", "принять (затем 1–9 — шаблон, Enter — без шаблона)"],
  ["S", "в шорт-лист"],
  ["X", "отклонить (затем 1–9 — шаблон, Enter — без шаблона)"],
  ["M", "сообщение артисту"],
  ["N", "заметка для сотрудников"],
  ["Z", "отменить последнее решение, пока сообщение не ушло"],
  ["C", "комментарий к текущему моменту (протяните по волне — к отрезку)"],
  ["Esc", "закрыть выбор шаблона / подсказку; из поля — вернуть клавиши"],
  ["?", "эта подсказка"],
];

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
  const { track, pairs, chooser } = desk;
  const chooserRef = useRef<HTMLDivElement>(null);
  // On a phone the votes open with the sheet, so the bar keeps its one row of controls (0227).
  const phone = useMediaQuery(PHONE_QUERY);
  // The chooser takes the focus: Enter then sends from it, not from a link or button focused before.
  useEffect(() => {
    if (chooser) chooserRef.current?.focus({ preventScroll: true });
  }, [chooser]);
  if (!track) return null;
  // The templates read as the artist will get them: the server's own rule (domain/decision-message.ts),
  // once per direction when `{direction}` makes the texts differ.
  const previews = (text: string) => {
    const byText = new Map<string, Direction[]>();
    for (const p of pairs) {
      const filled = templateMessage(text, track.filename, p.direction as Direction);
      byText.set(filled, [...(byText.get(filled) ?? []), p.direction as Direction]);
    }
    return [...byText];
  };
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
        <div className="dk-outcomes" role="group" aria-label="Решение по треку">
          {DESK_OUTCOMES.map((o) => (
            <button
              key={o}
              type="button"
              className={`st-btn dk-outcome dk-${o}`}
              aria-keyshortcuts={OUTCOME_KEYS[o]}
              aria-pressed={chooser === o}
              title={`${OUTCOME_LABELS[o]} (${OUTCOME_KEYS[o]})`}
              disabled={!desk.ready}
              onClick={() => desk.choose(o)}
            >
              {OUTCOME_LABELS[o]} <kbd aria-hidden="true">{OUTCOME_KEYS[o]}</kbd>
            </button>
          ))}
          <button
            type="button"
            className="st-btn st-btn-sm dk-more"
            aria-pressed={chooser === "shortlisted"}
            aria-label="В шорт-лист с готовым сообщением"
            title="В шорт-лист с готовым сообщением"
            disabled={!desk.ready}
            onClick={() => desk.choose("shortlisted", true)}
          >
            <span aria-hidden="true">…</span>
          </button>
        </div>
        <div className="dk-states" role="group" aria-label="Состояние по направлениям">
          {pairs.length === 0
            ? <span className="st-muted st-small">Направления трека вне ваших категорий</span>
            : pairs.map((d) => (
              <span key={d.direction} className={`dp-badge dp-${d.status}`}>
                {label(d.direction as Direction)}: {STATE_LABELS[d.status] ?? d.status}
                {d.overdue && (
                  <span className="dk-overdue" data-testid="dock-overdue">{` · ${PAIR_OVERDUE_LABEL}`}</span>
                )}
              </span>
            ))}
        </div>
        <div className="dk-status" aria-live="polite">
          {ends && <SilentHold desk={desk} ctx={ends} />}
          {desk.holding && desk.last && (!ends || desk.last.notifyAt !== null) && (
            <span className="dk-hold" data-testid="decision-hold">
              «{desk.last.track.filename}»: {OUTCOME_LABELS[desk.last.status].toLowerCase()} — артист узнает через{" "}
              <strong>{clock(desk.holdLeft)}</strong>
              <button
                type="button"
                className="st-btn st-btn-sm"
                aria-keyshortcuts="Z"
                onClick={() =>
                  void desk.undo()}
              >
                Отменить <kbd aria-hidden="true">Z</kbd>
              </button>
            </span>
          )}
          {!desk.holding && desk.last && (
            <span className="st-muted st-small">
              «{desk.last.track.filename}»: {OUTCOME_LABELS[desk.last.status].toLowerCase()}
              {desk.last.notifyAt !== null ? ", сообщение ушло в отправку" : ""}
            </span>
          )}
          {desk.sending && <span className="st-muted st-small">{`Сохранение…`}</span>}
        </div>
        <div className="dk-tools">
          <button
            type="button"
            className="st-btn st-btn-sm dk-sheet-open"
            aria-expanded={desk.sheet}
            aria-controls={`${id}-sheet`}
            onClick={() => desk.setSheet(!desk.sheet)}
          >
            <span className="dk-sheet-open-label">
              {votes && phone ? "Голос, сообщение и заметка" : "Сообщение и заметка"}
            </span>
            <span className="dk-sheet-open-mark" aria-hidden="true">✉</span> <kbd aria-hidden="true">M</kbd>
          </button>
          <button
            type="button"
            className="st-btn st-btn-sm"
            aria-keyshortcuts="Shift+Slash"
            aria-expanded={desk.legend}
            aria-controls={`${id}-legend`}
            title="Клавиши (?)"
            onClick={desk.toggleLegend}
          >
            Клавиши <kbd aria-hidden="true">?</kbd>
          </button>
        </div>
      </div>

      {votes && !phone && <div className="dk-votes">{votes}</div>}

      {desk.error && <div className="st-alert st-alert-error dk-error" role="alert">{desk.error}</div>}
      {ends && <DeskConflictNotice desk={desk} ctx={ends} />}
      {ends && <QueueDone desk={desk} ctx={ends} skipped={ends.skipped} onSkipped={ends.onSkipped} />}

      <div id={`${id}-sheet`} className="dk-sheet" data-open={desk.sheet || chooser !== null || undefined}>
        <div className="dk-sheet-head">
          <strong className="dk-sheet-title">{track.filename}</strong>
          <button type="button" className="st-btn st-btn-sm dk-sheet-close" onClick={desk.close}>
            Закрыть <kbd aria-hidden="true">Esc</kbd>
          </button>
        </div>
        {votes && phone && <div className="dk-votes">{votes}</div>}
        {chooser && (
          <div
            ref={chooserRef}
            tabIndex={-1}
            className="dk-chooser"
            data-desk-chooser=""
            role="group"
            aria-label={CHOOSER_TITLES[chooser]}
          >
            <p className="dk-chooser-title">{CHOOSER_TITLES[chooser]}</p>
            {desk.templates.length === 0 && (
              <p className="st-muted st-small">Готовых сообщений для этого решения нет</p>
            )}
            <ol className="dk-templates">
              {desk.templates.map((t, i) => (
                <li key={t.id}>
                  <button
                    type="button"
                    className="st-btn dk-template"
                    aria-keyshortcuts={String(i + 1)}
                    onClick={() => desk.pick(i + 1)}
                  >
                    <kbd aria-hidden="true">{i + 1}</kbd>
                    <span className="dk-template-title">{t.title}</span>
                    {previews(t.text).map(([text, dirs]) => (
                      <span key={dirs.join()} className="dk-template-text">
                        {pairs.length > 1 && <span className="dk-template-dirs">{dirs.map(label).join(", ")}:</span>}
                        <span data-template-text="">{text}</span>
                      </span>
                    ))}
                  </button>
                </li>
              ))}
            </ol>
            <button type="button" className="st-btn st-btn-primary" aria-keyshortcuts="Enter" onClick={desk.send}>
              {desk.message.trim() ? "Отправить с моим сообщением" : "Без готового сообщения"}{" "}
              <kbd aria-hidden="true">Enter</kbd>
            </button>
          </div>
        )}
        <div className="dk-texts">
          <div className="st-field">
            <label className="st-label" htmlFor={`${id}-message`}>
              Сообщение артисту <kbd aria-hidden="true">M</kbd>
            </label>
            <textarea
              id={`${id}-message`}
              ref={desk.messageRef}
              className="st-input dk-text"
              rows={2}
              aria-keyshortcuts="M"
              value={desk.message}
              onChange={(e) => desk.setMessage(e.target.value)}
              onKeyDown={escape}
            />
          </div>
          <div className="st-field">
            <label className="st-label" htmlFor={`${id}-note`}>
              Заметка для сотрудников <kbd aria-hidden="true">N</kbd>
            </label>
            <textarea
              id={`${id}-note`}
              ref={desk.noteRef}
              className="st-input dk-text"
              rows={2}
              aria-keyshortcuts="N"
              value={desk.note}
              onChange={(e) => desk.setNote(e.target.value)}
              onKeyDown={escape}
            />
          </div>
        </div>
        {phone && sheetExtra}
        {pairs.length > 1 && (
          <fieldset className="dk-overrides">
            <legend className="st-label">По направлениям (если решение различается)</legend>
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
                    <option value="">Как у всех</option>
                    {DESK_OUTCOMES.map((o) => <option key={o} value={o}>{OUTCOME_LABELS[o]}</option>)}
                  </select>
                </label>
              );
            })}
          </fieldset>
        )}
      </div>

      {desk.legend && (
        <section id={`${id}-legend`} className="dk-legend" aria-label="Клавиши">
          <dl>
            {DESK_KEYS.map(([k, what]) => (
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
