/** A row of toggle buttons choosing one period (the dashboards' charts and response figures). */
export function PeriodPicker<P extends string>({ periods, value, onChange, label }: {
  periods: ReadonlyArray<{ value: P; label: string }>;
  value: P;
  onChange: (value: P) => void;
  /** The group's accessible name («Период», «Period»). */
  label: string;
}) {
  return (
    <div className="st-periods" role="group" aria-label={label}>
      {periods.map((p) => (
        <button
          key={p.value}
          type="button"
          className="st-period"
          aria-pressed={value === p.value}
          onClick={() => onChange(p.value)}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}
