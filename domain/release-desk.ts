/**
 * What only the release desk (the staff pages and the server) uses: the moves staff may make between
 * the stages and the label's calendar day. Apart from releases.ts, which the artist's pages import,
 * so that the public chunks do not carry them (decision 0432).
 */
import type { ReleaseStage } from "./releases.ts";

/**
 * The moves staff may make (PATCH …/releases/{id} `stage`). Forward one step, back one step
 * (an unscheduled date, materials found wanting), to cancelled from any stage before release, and a
 * cancelled release reopened. The desk itself also moves materials_requested → materials_received
 * when everything required is in, and scheduled → released on the release day.
 */
export const RELEASE_STAGE_MOVES: Record<ReleaseStage, readonly ReleaseStage[]> = {
  materials_requested: ["materials_received", "cancelled"],
  materials_received: ["materials_requested", "scheduled", "cancelled"],
  scheduled: ["materials_received", "released", "cancelled"],
  released: [],
  cancelled: ["materials_requested"],
};

export function mayMoveStage(from: ReleaseStage, to: ReleaseStage): boolean {
  return from === to || RELEASE_STAGE_MOVES[from].includes(to);
}

/** The label's calendar day of a moment (Moscow: the label works on Moscow time), YYYY-MM-DD. */
export function labelDay(at: Date): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().slice(0, 10);
}
