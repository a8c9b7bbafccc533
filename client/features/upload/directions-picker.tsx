import {
  blockedDirections,
  type Direction,
  DIRECTION_CONFLICT_MESSAGE,
  DIRECTION_LABELS,
  DIRECTIONS,
} from "../../../domain/directions.ts";
import { AlertIcon } from "../../components/icons.tsx";

interface Props {
  selected: readonly Direction[];
  disabled?: boolean;
  /** Called for every click; the page decides (toggle, or ask an anonymous visitor to sign in). */
  onToggle(code: Direction): void;
}

/**
 * The Направления checkboxes (spec 1 §5): a direction that conflicts with a chosen one is disabled,
 * and the conflict message says why.
 */
export function DirectionsPicker({ selected, disabled, onToggle }: Props) {
  const blocked = blockedDirections(selected);
  const anyBlocked = DIRECTIONS.some((d) => blocked.has(d) && !selected.includes(d));
  return (
    <fieldset className="fieldset" aria-describedby={anyBlocked ? "direction-conflict" : undefined}>
      <legend>Направления</legend>
      <div className="directions">
        {DIRECTIONS.map((code) => {
          const checked = selected.includes(code);
          const isBlocked = blocked.has(code) && !checked;
          const cls = ["check", checked && "check-checked", isBlocked && "check-disabled"].filter(Boolean).join(" ");
          return (
            <label key={code} className={cls} title={isBlocked ? DIRECTION_CONFLICT_MESSAGE : undefined}>
              <input
                type="checkbox"
                name="directions"
                value={code}
                checked={checked}
                disabled={isBlocked || disabled}
                onChange={() => onToggle(code)}
              />
              <span>{DIRECTION_LABELS[code]}</span>
            </label>
          );
        })}
      </div>
      {anyBlocked && (
        <p className="conflict-note" id="direction-conflict" role="note">
          <AlertIcon size={18} />
          <span>{DIRECTION_CONFLICT_MESSAGE}</span>
        </p>
      )}
    </fieldset>
  );
}
