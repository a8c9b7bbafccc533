import { blockedDirections, type Direction, DIRECTIONS } from "../../../../domain/directions.ts";
import "../../../components/ui/staff.css";
import { useReviewTexts } from "../texts/review-texts-context.ts";

interface DirectionCheckboxesProps {
  value: Direction[];
  onChange: (next: Direction[]) => void;
  label: (d: Direction) => string;
  legend: string;
  /** Extra reason a box is locked (moderators: outside their categories). */
  locked?: (d: Direction) => boolean;
  disabled?: boolean;
  help?: string;
}

/**
 * The six direction checkboxes. A direction that conflicts with one already chosen cannot be added
 * (the conflict table of domain/directions.ts); its box is disabled and says why.
 */
export function DirectionCheckboxes(
  { value, onChange, label, legend, locked, disabled, help }: DirectionCheckboxesProps,
) {
  const words = useReviewTexts();
  const blocked = blockedDirections(value);
  const toggle = (d: Direction) => {
    const set = new Set(value);
    set.has(d) ? set.delete(d) : set.add(d);
    onChange(DIRECTIONS.filter((x) => set.has(x)));
  };
  return (
    <fieldset className="st-fieldset">
      <legend className="st-label" style={{ marginBottom: 8 }}>{legend}</legend>
      <div className="st-checks">
        {DIRECTIONS.map((d) => {
          const checked = value.includes(d);
          const conflict = !checked && blocked.has(d);
          const off = Boolean(disabled) || conflict || Boolean(locked?.(d));
          return (
            <label
              key={d}
              className={off ? "st-check st-check-disabled" : "st-check"}
              title={conflict ? words.directionConflict : undefined}
            >
              <input type="checkbox" value={d} checked={checked} disabled={off} onChange={() => toggle(d)} />
              <span>{label(d)}</span>
            </label>
          );
        })}
      </div>
      {help && <p className="st-hint" style={{ margin: "8px 0 0" }}>{help}</p>}
    </fieldset>
  );
}
