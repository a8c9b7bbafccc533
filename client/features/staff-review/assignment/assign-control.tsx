import { useId, useState } from "react";
import type { AssignableStaff } from "./assignment-api.ts";

/** The value of the «снять назначение» option. */
const NOBODY = "none";

export const ASSIGN_CONTROL_TEXTS = {
  label: "Назначить",
  choose: "Кому назначить…",
  nobody: "Снять назначение",
  apply: "Назначить",
  busy: "Назначение…",
  noneEligible: "Нет сотрудников, чьи категории покрывают эти направления",
};

/** The colleagues whose directions cover every one of `needed` (all staff when nothing is needed). */
export function eligibleStaff(staff: readonly AssignableStaff[], needed: readonly string[]): AssignableStaff[] {
  return staff.filter((s) => needed.every((d) => (s.directions as readonly string[]).includes(d)));
}

/**
 * A menu of the colleagues who may be assigned (their categories cover the directions needed), the
 * option to clear, and the button that applies it (issue 24). The server checks it all again.
 */
export function AssignControl(
  { staff, needed, onAssign, busy, disabled, label = ASSIGN_CONTROL_TEXTS.label, selectedId, resetOnAssign }: {
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
          {eligible.length > 0 ? ASSIGN_CONTROL_TEXTS.choose : ASSIGN_CONTROL_TEXTS.noneEligible}
        </option>
        {eligible.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name === s.username ? `@${s.username}` : `${s.name} (@${s.username})`}
          </option>
        ))}
        <option value={NOBODY}>{ASSIGN_CONTROL_TEXTS.nobody}</option>
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
        {busy ? ASSIGN_CONTROL_TEXTS.busy : label}
      </button>
    </span>
  );
}
