import { useState } from "react";
import { Modal } from "../../../components/ui/modal.tsx";
import { errorText } from "../../../lib/api.ts";
import { type AssignableStaff, type SplitAnswer, splitQueue } from "./assignment-api.ts";
import type { StaffBase } from "../../../lib/staff-queries.ts";

export const SPLIT_TEXTS = {
  open: "Разделить новые",
  title: "Разделить новые треки направления поровну",
  direction: "Направление",
  people: "Кому",
  submit: "Разделить поровну",
  busy: "Распределение…",
  cancel: "Закрыть",
  noPeople: "Нет сотрудников, чьи категории покрывают это направление",
  result: (total: number) => (total === 0 ? "Новых неназначенных треков нет" : `Распределено треков: ${total}`),
  failed: "Не удалось распределить треки",
};

/**
 * A direction's new queue split evenly (issue 24, decision 0233): the direction (the caller's own),
 * the colleagues covering it, and what each received. Admins see every direction; moderators theirs.
 */
export function SplitDialog(
  { base, open, onClose, staff, directions, label, onDone }: {
    base: StaffBase;
    open: boolean;
    onClose: () => void;
    staff: readonly AssignableStaff[];
    /** The caller's directions. */
    directions: readonly string[];
    label: (direction: string) => string;
    onDone: () => void;
  },
) {
  const [direction, setDirection] = useState(directions[0] ?? "");
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<SplitAnswer | null>(null);
  const current = directions.includes(direction) ? direction : directions[0] ?? "";
  const covering = staff.filter((s) => (s.directions as readonly string[]).includes(current));
  const picked = covering.filter((s) => chosen.has(s.id)).map((s) => s.id);
  const toggle = (id: number) => {
    const next = new Set(chosen);
    next.has(id) ? next.delete(id) : next.add(id);
    setChosen(next);
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      setAnswer(await splitQueue(base, current, picked));
      onDone();
    } catch (err) {
      setError(errorText(err, SPLIT_TEXTS.failed, SPLIT_TEXTS.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={SPLIT_TEXTS.title}
      onClose={onClose}
      closeDisabled={busy}
      footer={
        <>
          <button type="button" className="st-btn" onClick={onClose} disabled={busy}>{SPLIT_TEXTS.cancel}</button>
          <button
            type="button"
            className="st-btn st-btn-primary"
            disabled={busy || picked.length === 0 || current === ""}
            onClick={submit}
          >
            {busy ? SPLIT_TEXTS.busy : SPLIT_TEXTS.submit}
          </button>
        </>
      }
    >
      <div className="st-split-form">
        <label className="st-field">
          <span>{SPLIT_TEXTS.direction}</span>
          <select
            className="st-select"
            value={current}
            onChange={(e) => {
              setDirection(e.target.value);
              setAnswer(null);
            }}
          >
            {directions.map((d) => <option key={d} value={d}>{label(d)}</option>)}
          </select>
        </label>
        <fieldset className="st-field">
          <legend>{SPLIT_TEXTS.people}</legend>
          {covering.length === 0 && <p className="st-muted">{SPLIT_TEXTS.noPeople}</p>}
          {covering.map((s) => (
            <label key={s.id} className="st-check">
              <input type="checkbox" checked={chosen.has(s.id)} onChange={() => toggle(s.id)} />
              {s.name === s.username ? `@${s.username}` : `${s.name} (@${s.username})`}
            </label>
          ))}
        </fieldset>
        {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
        {answer && (
          <div className="st-alert st-alert-success" role="status" data-testid="split-result">
            <p>{SPLIT_TEXTS.result(answer.total)}</p>
            {answer.total > 0 && (
              <ul>
                {answer.assigned.map((a) => <li key={a.user.id}>{`${a.user.name} — ${a.count}`}</li>)}
              </ul>
            )}
          </div>
        )}
      </div>
    </Modal>
  );
}
