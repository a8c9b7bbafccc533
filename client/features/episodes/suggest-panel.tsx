import { useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/api.ts";
import type { EpisodeWrites, Row, Suggestion } from "./api.ts";
import type { EpisodeTexts } from "./episode-texts.ts";

/**
 * The suggested running order (issue 35) beside the current one, each with its clashes and largest
 * tempo step. When it arrives its «Take» button has the focus, so one key (Enter) takes it.
 */
export function SuggestPanel(
  { t, rows, writes, onTake }: {
    t: EpisodeTexts;
    rows: Row[];
    writes: EpisodeWrites;
    onTake: (order: number[]) => void;
  },
) {
  const [first, setFirst] = useState<number>(rows[0].track_id);
  const [answer, setAnswer] = useState<Suggestion | null>(null);
  const take = useRef<HTMLButtonElement>(null);
  const byId = new Map(rows.map((r) => [r.track_id, r]));
  useEffect(() => {
    if (!byId.has(first)) setFirst(rows[0].track_id);
  }, [rows]);
  useEffect(() => {
    if (answer) take.current?.focus();
  }, [answer]);
  const ask = async () => {
    setAnswer(await writes.suggest.mutateAsync(first).catch(() => null));
  };
  const name = (id: number) => {
    const r = byId.get(id);
    return r ? `${r.artist} — ${r.title}` : `#${id}`;
  };
  return (
    <section className="st-section" aria-labelledby="ep-suggest-h">
      <h2 id="ep-suggest-h">{t.suggest}</h2>
      <div className="st-actions">
        <label className="st-inline-field">
          <span>{t.startWith}</span>
          <select className="st-input" value={first} onChange={(e) => setFirst(Number(e.target.value))}>
            {rows.map((r) => <option key={r.track_id} value={r.track_id}>{r.artist} — {r.title}</option>)}
          </select>
        </label>
        <button type="button" className="st-btn" onClick={ask} disabled={writes.suggest.isPending}>
          {writes.suggest.isPending ? t.suggesting : t.suggest}
        </button>
      </div>
      {writes.suggest.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(writes.suggest.error, t.loadFailed)}</div>
      )}
      {answer && (
        <div className="ep-compare" data-testid="suggestion">
          {([["current", answer.current], ["suggested", answer.suggested]] as const).map(([which, o]) => (
            <div key={which} className="ep-compare-col">
              <h3>{which === "current" ? t.current : t.suggested}</h3>
              <p className="st-small" data-testid={`${which}-figures`}>
                {t.clashes(o.clashes)} · {t.maxStep(o.max_step_pct)}
              </p>
              <ol className="st-small">{o.order.map((id) => <li key={id}>{name(id)}</li>)}</ol>
            </div>
          ))}
          <div className="st-actions ep-full">
            <button
              ref={take}
              type="button"
              className="st-btn st-btn-primary"
              onClick={() => {
                onTake(answer.suggested.order);
                setAnswer(null);
              }}
            >
              {t.take}
            </button>
            <button type="button" className="st-btn st-btn-ghost" onClick={() => setAnswer(null)}>{t.dismiss}</button>
          </div>
        </div>
      )}
    </section>
  );
}
