import type { DeclineReason } from "../../../../domain/decline-reasons.ts";
import { useQueryClient } from "@tanstack/react-query";
import { read } from "../../../lib/api.ts";
import type { Direction } from "../../../../domain/directions.ts";
import { panel, type StaffBase, type StaffTrack, type TrackList } from "../../../lib/staff-queries.ts";
import type { DeclineTemplate } from "./decision-queries.ts";

/**
 * The review desk's calls (issue 23): one decision for all of a track's directions in the caller's
 * categories (PUT `${base}/tracks/:id/decision`), its undo while the artist's message waits
 * (POST `${base}/tracks/:id/decision/undo`), and the cache edits that keep the queue in place
 * (decision 0225): the decided row stays where it was, marked, until the list is read again.
 */

export type DeskDecision = StaffTrack["decisions"][number];
export type DeskOutcome = "accepted" | "shortlisted" | "declined";
export const DESK_OUTCOMES: readonly DeskOutcome[] = ["accepted", "shortlisted", "declined"];

export interface DeskOverride {
  status: DeskOutcome;
  template_id?: number | null;
  message?: string | null;
  note?: string | null;
}

export interface DeskDecisionBody {
  status: DeskOutcome;
  template_id?: number | null;
  message?: string | null;
  note?: string | null;
  /** Each decided pair's revision the desk saw (decision 0199): a newer one answers 409. */
  revisions: Partial<Record<Direction, number>>;
  overrides?: Partial<Record<Direction, DeskOverride>>;
  /** Decline reasons (issue 37), with `declined` or `shortlisted`. */
  reasons?: DeclineReason[];
}

export interface DeskAnswer {
  decisions: DeskDecision[];
  /** When the artist's message leaves (ISO 8601); null when nobody is told. */
  notify_at: string | null;
  /** Until when the caller may take the call back (ISO 8601; issue 31); null: nothing to undo. */
  undo_until?: string | null;
}

/** A ready-made message and the outcome it is for. */
export type DeskTemplate = DeclineTemplate;

/** The templates of one outcome, in the listing's order. */
export const templatesOf = (all: readonly DeskTemplate[], outcome: DeskOutcome) =>
  all.filter((t) => t.outcome === outcome);

export const sendDeskDecision = (base: StaffBase, id: number, body: DeskDecisionBody): Promise<DeskAnswer> =>
  read(panel(base).tracks[":id"].decision.$put({ param: { id: String(id) }, json: body }));

export const undoDeskDecision = (base: StaffBase, id: number): Promise<{ decisions: DeskDecision[] }> =>
  read(panel(base).tracks[":id"].decision.undo.$post({ param: { id: String(id) } }));

/**
 * Puts decisions into the cached lists and the track's own entry without reading the list again, so
 * the row keeps its place (decision 0225). A pair the answer does not name keeps what it had.
 */
export function usePatchDecisions(tracksKey: readonly string[]) {
  const queryClient = useQueryClient();
  return (id: number, decisions: readonly DeskDecision[]) => {
    const by = new Map(decisions.map((d) => [d.direction, d]));
    queryClient.setQueriesData<TrackList>({ queryKey: [...tracksKey, "list"] }, (old) =>
      old && {
        ...old,
        tracks: old.tracks.map((t) =>
          t.id === id ? { ...t, decisions: t.decisions.map((d) => by.get(d.direction) ?? d) } : t
        ),
      });
    void queryClient.invalidateQueries({ queryKey: [...tracksKey, "one", id] });
  };
}
