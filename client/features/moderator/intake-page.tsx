import { useQuery } from "@tanstack/react-query";
import { Fragment, useId } from "react";
import { type Direction, isDirection } from "../../../domain/directions.ts";
import { MODERATOR_CATEGORY_LABELS } from "../../../domain/staff-directions.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { moderatorIntakeQuery, type ModeratorIntakeRule } from "./api.ts";
import "./moderator.css";

/**
 * Intake (issue 25): the intake rules of the moderator's directions, read-only (admins change them
 * on «Приём треков»). English, like the rest of the moderator panel; the messages to artists are
 * shown as written.
 */
export function ModeratorIntakePage() {
  useDocumentTitle("Intake rules");
  const list = useQuery(moderatorIntakeQuery());
  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Intake rules</h1>
      </div>
      <p className="st-muted">
        How your directions take tracks: open or paused, limits per artist, the tempo window and the response promise.
        Only admins change these rules.
      </p>
      {list.isPending && <p className="st-muted" role="status">Loading...</p>}
      {list.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(list.error, "Failed to load intake rules")}
        </div>
      )}
      {list.data && list.data.length === 0 && <p className="st-muted">No categories assigned</p>}
      {list.data?.map((rule) => <RuleView key={rule.direction} rule={rule} />)}
    </section>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function RuleView({ rule }: { rule: ModeratorIntakeRule }) {
  const id = useId();
  const d = rule.direction as Direction;
  const rows: [string, string][] = [
    ["Status", rule.open ? "Open" : `Paused${rule.pause_message ? ` — «${rule.pause_message}»` : ""}`],
    [
      "Tracks per artist in 30 days",
      rule.cap_per_30_days === null ? "No limit" : String(rule.cap_per_30_days),
    ],
    [
      "Between an artist's submissions",
      rule.cooldown_hours === null ? "No wait" : plural(rule.cooldown_hours, "hour", "hours"),
    ],
    [
      "Tempo window",
      `${rule.tempo_min}–${rule.tempo_max} BPM; outside it the track is ${
        rule.tempo_mode === "refuse" ? "refused" : "flagged for staff"
      }`,
    ],
    ["Response promise", plural(rule.promise_days, "day", "days")],
    [
      "Automatic decline",
      `${plural(rule.auto_decline_after_days, "day", "days")} after the promise`,
    ],
    ["Automatic decline message", rule.late_message ?? "The default text"],
    ["Staff Telegram chat", rule.staff_chat_id === null ? "Not set" : String(rule.staff_chat_id)],
  ];
  return (
    <section className="st-section" aria-labelledby={`${id}-h`} data-testid={`intake-${rule.direction}`}>
      <div className="intake-head">
        <h2 id={`${id}-h`}>{isDirection(d) ? MODERATOR_CATEGORY_LABELS[d] : rule.direction}</h2>
        <span className={rule.open ? "st-badge st-badge-success" : "st-badge st-badge-warning"}>
          {rule.open ? "Open" : "Paused"}
        </span>
        {rule.updated_at && (
          <span className="st-muted st-small">
            Updated {formatDateTime(rule.updated_at)}
            {rule.updated_by ? ` by @${rule.updated_by}` : ""}
          </span>
        )}
      </div>
      <dl className="intake-rules">
        {rows.map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
