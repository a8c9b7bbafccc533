import { useId, useState } from "react";
import type { AssignableStaff } from "./assignment-api.ts";
import { REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";

/** The value of the «снять назначение» option. */
const NOBODY = "none";

/** The admin panel's words (the panel's dictionary has both). */
export const ASSIGN_CONTROL_TEXTS = REVIEW_TEXTS_RU.assign;

/** The colleagues whose directions cover every one of `needed` (all staff when nothing is needed). */
export function eligibleStaff(staff: readonly AssignableStaff[], needed: readonly string[]): AssignableStaff[] {
  return staff.filter((s) => needed.every((d) => (s.directions as readonly string[]).includes(d)));
}

/**
 * A menu of the colleagues who may be assigned (their categories cover the directions needed), the
 * option to clear, and the button that applies it (issue 24). The server checks it all again.
 */
export function AssignControl(
  { staff, needed, onAssign, busy, disabled, label: given, selectedId, resetOnAssign }: {
    staff: readonly AssignableStaff[];
    needed: readonly string[];
    onAssign: (userId: number | null) => void;
    busy?: boolean;
    disabled?: boolean;
    label?: string;
    /** The current assignee, preselected. */
    selectedId?: number | null;
    /** The menu goes back to «Кому назначить…» once applied (the selection's control: the selection ends). */
    resetOnAssign?: boolean;
  },
) {
  const id = useId();
  const t = useReviewTexts().assign;
  const label = given ?? t.label;
  const [choice, setChoice] = useState<string>(selectedId ? String(selectedId) : "");
  const eligible = eligibleStaff(staff, needed);
  return (
    <span className="st-assign-control">
      <label className="visually-hidden" htmlFor={`${id}-who`}>{label}</label>
      <select
        id={`${id}-who`}
        className="st-select st-select-sm"
        value={choice}
        disabled={disabled || busy}
        onChange={(e) => setChoice(e.target.value)}
      >
        <option value="">
          {eligible.length > 0 ? t.choose : t.noneEligible}
        </option>
        {eligible.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name === s.username ? `@${s.username}` : `${s.name} (@${s.username})`}
          </option>
        ))}
        <option value={NOBODY}>{t.nobody}</option>
      </select>
      <button
        type="button"
        className="st-btn st-btn-sm"
        disabled={disabled || busy || choice === ""}
        onClick={() => {
          onAssign(choice === NOBODY ? null : Number(choice));
          if (resetOnAssign) setChoice("");
        }}
      >
        {busy ? t.busy : label}
      </button>
    </span>
  );
}
