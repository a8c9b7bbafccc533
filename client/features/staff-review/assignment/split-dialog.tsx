import { useState } from "react";
import { Modal } from "../../../components/ui/modal.tsx";
import { panelErrorText, REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { type AssignableStaff, type SplitAnswer, splitQueue } from "./assignment-api.ts";
import type { StaffBase } from "../../../lib/staff-queries.ts";

/** The admin panel's words (the panel's dictionary has both). */
export const SPLIT_TEXTS = REVIEW_TEXTS_RU.split;

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
  const words = useReviewTexts();
  const t = words.split;
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
      setError(panelErrorText(words, err, t.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t.title}
      onClose={onClose}
      closeDisabled={busy}
      closeLabel={t.cancel}
      footer={
        <>
          <button type="button" className="st-btn" onClick={onClose} disabled={busy}>{t.cancel}</button>
          <button
            type="button"
            className="st-btn st-btn-primary"
            disabled={busy || picked.length === 0 || current === ""}
            onClick={submit}
          >
            {busy ? t.busy : t.submit}
          </button>
        </>
      }
    >
      <div className="st-split-form">
        <label className="st-field">
          <span>{t.direction}</span>
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
          <legend>{t.people}</legend>
          {covering.length === 0 && <p className="st-muted">{t.noPeople}</p>}
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
            <p>{t.result(answer.total)}</p>
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
