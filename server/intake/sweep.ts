import { DIRECTION_LABELS, parseDirections } from "../../domain/directions.ts";
import { DEFAULT_LATE_MESSAGE } from "../../domain/intake-rules.ts";
import { fillTemplate, isReviewStatus, REVIEW_TEXTS } from "../../domain/review.ts";
import { mayMove } from "../../domain/decision-states.ts";
import { trackNameParts } from "../../domain/track-name.ts";
import type { AppDeps } from "../deps.ts";
import type { ReviewService } from "../track-services.ts";
import { ApiError } from "../lib/http-error.ts";
import { createSweepRunner, type SweepPass } from "../leases/sweep-runner.ts";
import { pairsPastDue } from "../tracks/intake-sql.ts";
import { readRules } from "./rules.ts";
import { autoDeclineDaysOf, isOverdue } from "../../domain/response-promise.ts";

/**
 * The response promise kept (issue 25, docs/decisions/0241): every INTAKE_SWEEP_INTERVAL_S one
 * instance declines each pair past its direction's `promise_days` + `auto_decline_after_days`
 * (strictly, to the millisecond) that still awaits a decision (new or listened), through the one
 * decision path (`decidePairs`: history marked `automatic`, no decider, the artist's held message,
 * assignments ended), with the direction's `late_message` or DEFAULT_LATE_MESSAGE.
 *
 * Several instances: the pass runs under the job lease of server/leases/ (one conditional upsert) by
 * the one sweep runner (server/leases/sweep-runner.ts); the holder keeps it by renewing it each pass,
 * another takes it once it has ended. Should two passes
 * ever meet, a pair's revision check lets only one decline through.
 */
export interface PromiseSweep {
  /** One pass now (when this instance holds or takes the lease); the pairs declined. */
  runOnce(): Promise<number>;
  /** Passes every interval; the timer does not keep the process alive. */
  start(): void;
  stop(): Promise<void>;
}

const LEASE_NAME = "promise-sweep";
/** Tracks read per query; a pass reads again until fewer come back (at most MAX_ROUNDS). */
const BATCH = 200;
const MAX_ROUNDS = 25;

export function createPromiseSweep(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "config"> & { review: Pick<ReviewService, "autoDecline"> },
  opts: { owner?: string } = {},
): PromiseSweep {
  const { db, logger } = deps;

  async function pass({ now, stopping }: SweepPass): Promise<number> {
    const rules = await readRules(db);
    const due = autoDeclineDaysOf(rules);
    let declined = 0;
    const seen = new Set<number>();
    for (let round = 0; round < MAX_ROUNDS && !stopping(); round++) {
      const rows = (await pairsPastDue(db, due, now, BATCH)).filter((r) => !seen.has(r.id));
      for (const row of rows) {
        seen.add(row.id);
        const uploaded = row.upload_date.getTime();
        const review = new Map(row.review.split(",").filter(Boolean).map((e) => e.split(":") as [string, string]));
        for (const d of parseDirections(row.directions)) {
          const state = review.get(d) ?? "new";
          if (!isReviewStatus(state) || !mayMove("automatic", state, "declined")) continue;
          if (!isOverdue(uploaded, now, due[d])) continue;
          const message = fillTemplate(rules[d].late_message ?? DEFAULT_LATE_MESSAGE, {
            ...trackNameParts(row.filename),
            direction: DIRECTION_LABELS[d],
          });
          try {
            if (await deps.review.autoDecline(row.id, d, message)) declined++;
          } catch (err) {
            // Changed by someone meanwhile: theirs stands.
            if (err instanceof ApiError && err.status === 409 && err.message === REVIEW_TEXTS.decisionChanged) continue;
            throw err;
          }
        }
      }
      if (rows.length < BATCH) break;
    }
    if (declined > 0) logger.info("promise sweep declined pairs", { declined });
    return declined;
  }

  const { runOnce, start, stop } = createSweepRunner(deps, {
    name: LEASE_NAME,
    everyMs: deps.config.intakeSweepIntervalS * 1000,
    owner: opts.owner,
    label: "promise sweep",
    pass,
  });
  return { runOnce, start, stop };
}
