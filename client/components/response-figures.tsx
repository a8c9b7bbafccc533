import "./response-figures.css";
import {
  FEEDBACK_FIGURES_TEXTS_EN,
  FEEDBACK_FIGURES_TEXTS_RU,
  FeedbackFigures,
  type FeedbackFiguresData,
} from "./feedback-figures.tsx";

/**
 * The dashboards' response figures (issue 24, `response_figures`; definitions: decision 0235): per
 * direction and per staff member, tracks received in the period, heard, decided, the median and
 * 90th percentile of the time from upload to the first listen and to the decision, and the share
 * decided within the promise. Calls no API; each table scrolls inside its own frame on a phone.
 */
export interface FigureRow {
  received: number;
  heard: number;
  decided: number;
  to_listen: { median_s: number | null; p90_s: number | null };
  to_decision: { median_s: number | null; p90_s: number | null };
  within_promise: { kept: number; due: number; share: number | null };
}

export interface ResponseFiguresData {
  period: { name: string; from: string; to: string };
  promise_days: number;
  by_direction: Array<{ direction: string } & FigureRow>;
  by_staff: Array<{ user: { id: number; username: string; name: string } } & FigureRow>;
}

export interface ResponseFiguresTexts {
  title: string;
  note: (days: number) => string;
  byDirection: string;
  byStaff: string;
  direction: string;
  person: string;
  received: string;
  heard: string;
  decided: string;
  toListen: string;
  toDecision: string;
  median: string;
  p90: string;
  withinPromise: (days: number) => string;
  /** Units of the waits, and the decimal mark: «14,2 дн» in Russian, "14.2 d" in English (issue 31). */
  units: { min: string; h: string; d: string; decimal: string };
  nobody: string;
}

export const RESPONSE_FIGURES_TEXTS_RU: ResponseFiguresTexts = {
  title: "Скорость ответа",
  note: (days) =>
    `Треки, загруженные за период. Услышан: первое прослушивание (20 с) или решение; решение: принят или отклонён (шорт-лист — ещё не решение); отменённые решения не считаются. Обещание артистам: ${days} дней.`,
  byDirection: "По направлениям",
  byStaff: "По сотрудникам",
  direction: "Направление",
  person: "Сотрудник",
  received: "Получено",
  heard: "Услышано",
  decided: "Решено",
  toListen: "До прослушивания",
  toDecision: "До решения",
  median: "медиана",
  p90: "90%",
  withinPromise: (days) => `Решено за ${days} дн.`,
  units: { min: "мин", h: "ч", d: "дн", decimal: "," },
  nobody: "Нет сотрудников",
};

export const RESPONSE_FIGURES_TEXTS_EN: ResponseFiguresTexts = {
  title: "Response times",
  note: (days) =>
    `Tracks uploaded in the period. Heard: first listen (20 s) or a decision; decided: accepted or declined (the shortlist is not a decision yet); undone decisions do not count. The promise to artists: ${days} days.`,
  byDirection: "By direction",
  byStaff: "By staff member",
  direction: "Direction",
  person: "Staff member",
  received: "Received",
  heard: "Heard",
  decided: "Decided",
  toListen: "To first listen",
  toDecision: "To decision",
  median: "median",
  p90: "90th pct",
  withinPromise: (days) => `Decided within ${days} d`,
  units: { min: "min", h: "h", d: "d", decimal: "." },
  nobody: "No staff members",
};

/** Seconds as a person reads a wait: minutes under an hour, hours under two days, then days. */
export function formatWait(s: number | null, units: ResponseFiguresTexts["units"]): string {
  if (s === null) return "—";
  const one = (n: number) => (Math.round(n * 10) / 10).toString().replace(".", units.decimal);
  if (s < 3600) return `${Math.max(0, Math.round(s / 60))} ${units.min}`;
  if (s < 48 * 3600) return `${one(s / 3600)} ${units.h}`;
  return `${one(s / 86400)} ${units.d}`;
}

function share(w: FigureRow["within_promise"]): string {
  return w.share === null ? "—" : `${Math.round(w.share * 100)}% (${w.kept}/${w.due})`;
}

function FiguresTable(
  { caption, head, rows, texts, promiseDays }: {
    caption: string;
    head: string;
    rows: Array<{ key: string | number; label: string; sub?: string; f: FigureRow }>;
    texts: ResponseFiguresTexts;
    promiseDays: number;
  },
) {
  const u = texts.units;
  return (
    <div className="st-table-wrap st-figures-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="st-table st-figures-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="st-figures-num">{texts.received}</th>
            <th scope="col" className="st-figures-num">{texts.heard}</th>
            <th scope="col" className="st-figures-num">{texts.decided}</th>
            <th scope="col" className="st-figures-num">
              {texts.toListen}
              <span className="st-figures-sub">{texts.median} / {texts.p90}</span>
            </th>
            <th scope="col" className="st-figures-num">
              {texts.toDecision}
              <span className="st-figures-sub">{texts.median} / {texts.p90}</span>
            </th>
            <th scope="col" className="st-figures-num">{texts.withinPromise(promiseDays)}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid={`figures-${r.key}`}>
              <th scope="row">
                {r.label}
                {r.sub && <span className="st-figures-sub">{r.sub}</span>}
              </th>
              <td className="st-figures-num" data-col="received">{r.f.received}</td>
              <td className="st-figures-num" data-col="heard">{r.f.heard}</td>
              <td className="st-figures-num" data-col="decided">{r.f.decided}</td>
              <td className="st-figures-num" data-col="to-listen">
                {formatWait(r.f.to_listen.median_s, u)} / {formatWait(r.f.to_listen.p90_s, u)}
              </td>
              <td className="st-figures-num" data-col="to-decision">
                {formatWait(r.f.to_decision.median_s, u)} / {formatWait(r.f.to_decision.p90_s, u)}
              </td>
              <td
                className={`st-figures-num${
                  r.f.within_promise.share !== null && r.f.within_promise.share < 1 ? " st-figures-late" : ""
                }`}
                data-col="within"
              >
                {share(r.f.within_promise)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ResponseFigures(
  { figures, directionLabel, texts, periodPicker }: {
    figures: ResponseFiguresData;
    directionLabel: (code: string) => string;
    texts: ResponseFiguresTexts;
    /** The dashboard's period selector, shown in the section's head when given. */
    periodPicker?: React.ReactNode;
  },
) {
  return (
    <section className="st-section" aria-labelledby="response-figures-title" style={{ marginTop: 20 }}>
      <div className="st-page-head" style={{ marginBottom: 8 }}>
        <h2 id="response-figures-title" style={{ margin: 0 }}>{texts.title}</h2>
        {periodPicker}
      </div>
      <p className="st-figures-note">{texts.note(figures.promise_days)}</p>
      <h3>{texts.byDirection}</h3>
      <FiguresTable
        caption={`${texts.title}: ${texts.byDirection}`}
        head={texts.direction}
        texts={texts}
        promiseDays={figures.promise_days}
        rows={figures.by_direction.map((d) => ({ key: d.direction, label: directionLabel(d.direction), f: d }))}
      />
      <h3 style={{ marginTop: 16 }}>{texts.byStaff}</h3>
      {figures.by_staff.length === 0 ? <p className="st-empty">{texts.nobody}</p> : (
        <FiguresTable
          caption={`${texts.title}: ${texts.byStaff}`}
          head={texts.person}
          texts={texts}
          promiseDays={figures.promise_days}
          rows={figures.by_staff.map((p) => ({
            key: `user-${p.user.id}`,
            label: p.user.name,
            sub: `@${p.user.username}`,
            f: p,
          }))}
        />
      )}
      {/* Issue 37: decline reasons and the artists' ratings of the feedback. */}
      <FeedbackFigures
        figures={figures as FeedbackFiguresData}
        directionLabel={directionLabel}
        texts={texts === RESPONSE_FIGURES_TEXTS_EN ? FEEDBACK_FIGURES_TEXTS_EN : FEEDBACK_FIGURES_TEXTS_RU}
      />
    </section>
  );
}
