import { cloneElement, type ReactElement, type ReactNode, useId } from "react";

/** What a field gives its control: the id its label points at, the description and invalid wiring. */
export interface FieldControl {
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean | "true" | "false";
}

export interface FieldProps {
  label: ReactNode;
  /** The one control: an input, select or textarea (its own props stay; the field adds the wiring). */
  children: ReactElement<FieldControl>;
  /** Classes beside the field's own, e.g. `st-wide`, `ep-grow`, `intake-half`. */
  className?: string;
  /** `st-inline-field`: the label beside the control (filters, cue rows) rather than above it. */
  inline?: boolean;
  /** A fixed id for the control; by default one of React's. */
  id?: string;
  /** A line under the control, read out as its description. */
  hint?: ReactNode;
  /** The field's error under the control: marks it invalid and is read out as its description. */
  error?: ReactNode;
}

const shown = (node: ReactNode) => node !== undefined && node !== null && node !== false && node !== "";

/**
 * One labelled field of the staff forms (decision 0460), written once: the label names the control
 * by id, and a hint or an error is tied to it with `aria-describedby` (`aria-invalid` for the error).
 * A field with neither wraps the control in its label (a `<span>` of text, as the staff CSS styles
 * it); one with either stacks a `st-label`, the control and the lines in a `<div>`, so that the
 * control's name stays the label's text alone.
 */
export function Field({ label, children, className, inline, id: fixedId, hint, error }: FieldProps) {
  const ownId = useId();
  const id = fixedId ?? ownId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [children.props["aria-describedby"], shown(hint) && hintId, shown(error) && errorId]
    .filter(Boolean).join(" ");
  const control = cloneElement(children, {
    id,
    ...(described ? { "aria-describedby": described } : {}),
    ...(shown(error) ? { "aria-invalid": true } : {}),
  });
  const classes = [inline ? "st-inline-field" : "st-field", className].filter(Boolean).join(" ");
  if (!shown(hint) && !shown(error)) {
    return (
      <label className={classes} htmlFor={id}>
        <span>{label}</span>
        {control}
      </label>
    );
  }
  return (
    <div className={classes}>
      <label className="st-label" htmlFor={id}>{label}</label>
      {control}
      {shown(hint) && <small className="st-hint" id={hintId}>{hint}</small>}
      {shown(error) && <small className="st-hint st-field-error" id={errorId}>{error}</small>}
    </div>
  );
}
