import {
  blockedDirections,
  type Direction,
  DIRECTION_CONFLICT_MESSAGE,
  DIRECTION_LABELS,
  DIRECTIONS,
} from "../../../domain/directions.ts";
import { AlertIcon } from "../../components/icons.tsx";

/** A direction's intake as `GET /api/config` gives it (issue 25): paused ones carry their message. */
export type DirectionIntake = Partial<Record<string, { open: boolean; pause_message: string | null }>>;

/** Shown under a paused direction whose admin left no message (decision 0242). */
export const PAUSED_DEFAULT_MESSAGE = "Приём треков на это направление временно приостановлен.";

/** The pause message of `code`, or null while it is open (or nothing is known of it). */
export function pauseMessage(intake: DirectionIntake | undefined, code: Direction): string | null {
  const rule = intake?.[code];
  if (!rule || rule.open) return null;
  return rule.pause_message?.trim() || PAUSED_DEFAULT_MESSAGE;
}

interface Props {
  selected: readonly Direction[];
  disabled?: boolean;
  /** The directions' intake (issue 25): a paused one is disabled and shows its message. */
  intake?: DirectionIntake;
  /** Called for every click; the page decides (toggle, or ask an anonymous visitor to sign in). */
  onToggle(code: Direction): void;
}

/**
 * The Направления checkboxes (spec 1 §5): a direction that conflicts with a chosen one is disabled,
 * and the conflict message says why. A paused direction (issue 25) is disabled with its pause message
 * under its name.
 */
export function DirectionsPicker({ selected, disabled, intake, onToggle }: Props) {
  const blocked = blockedDirections(selected);
  const anyBlocked = DIRECTIONS.some((d) => blocked.has(d) && !selected.includes(d));
  return (
    <fieldset className="fieldset" aria-describedby={anyBlocked ? "direction-conflict" : undefined}>
      <legend>Направления</legend>
      <div className="directions">
        {DIRECTIONS.map((code) => {
          const paused = pauseMessage(intake, code);
          const checked = selected.includes(code) && paused === null;
          const isBlocked = blocked.has(code) && !checked;
          const cls = [
            "check",
            checked && "check-checked",
            isBlocked && paused === null && "check-disabled",
            paused !== null && "check-paused",
          ].filter(Boolean).join(" ");
          return (
            <label
              key={code}
              className={cls}
              title={paused === null && isBlocked ? DIRECTION_CONFLICT_MESSAGE : undefined}
              data-testid={`direction-${code}`}
            >
              <input
                type="checkbox"
                name="directions"
                value={code}
                checked={checked}
                disabled={isBlocked || paused !== null || disabled}
                aria-labelledby={paused !== null ? `direction-name-${code}` : undefined}
                aria-describedby={paused !== null ? `direction-paused-${code}` : undefined}
                onChange={() => onToggle(code)}
              />
              {paused === null ? <span>{DIRECTION_LABELS[code]}</span> : (
                <span className="check-text">
                  <span className="check-name" id={`direction-name-${code}`}>{DIRECTION_LABELS[code]}</span>
                  <small className="check-pause" id={`direction-paused-${code}`}>{paused}</small>
                </span>
              )}
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
