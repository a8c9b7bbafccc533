import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { panelErrorText, REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { auth } from "../../../lib/auth.ts";
import type { StaffBase, StaffTrackRow } from "../../../lib/staff-queries.ts";
import { AssignControl } from "./assign-control.tsx";
import {
  assignableStaffQuery,
  assignTrack,
  assignTracks,
  type Presence,
  usePatchAssignee,
  usePresence,
} from "./assignment-api.ts";
import { SplitDialog } from "./split-dialog.tsx";
import { WorkBadges } from "./work-badges.tsx";
import "./assignment.css";

/**
 * The queue's assignment and presence (issue 24, decisions 0233, 0234), for both panels: the
 * colleagues one may assign, who is listening to the rows shown (polled), each row's marks, the
 * selection's assign action, the split of a direction's new queue, and the desk's assign menu.
 */

/** The admin panel's words (the panel's dictionary has both). */
export const QUEUE_ASSIGN_TEXTS = REVIEW_TEXTS_RU.queue;

/** Directions still open to an assignment: not accepted or declined (decision 0233). */
const openDirections = (track: Pick<StaffTrackRow, "decisions">, mine: ReadonlySet<string>) =>
  (track.decisions ?? []).filter((d) => mine.has(d.direction) && d.status !== "accepted" && d.status !== "declined")
    .map((d) => d.direction as string);

export function useQueueAssignment(
  { base, tracksKey, rows, playing = null }: {
    base: StaffBase;
    tracksKey: readonly string[];
    rows: readonly StaffTrackRow[];
    /** The track in the player, however it was opened (a link too): its presence is asked for (issue 31). */
    playing?: number | null;
  },
) {
  const queryClient = useQueryClient();
  const words = useReviewTexts();
  const staffQuery = useQuery(assignableStaffQuery(base, tracksKey));
  const staff = staffQuery.data ?? [];
  // The caller's directions: the union of what the colleagues cover is trimmed to them, and the
  // caller is one of the colleagues.
  const mine = new Set(staff.flatMap((s) => s.directions as string[]));
  const presence = usePresence(base, tracksKey, [...rows.map((r) => r.id), ...(playing === null ? [] : [playing])]);
  const patch = usePatchAssignee(tracksKey);
  const me = auth.user?.id;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The marks under a row's name. */
  const rowExtra = (track: StaffTrackRow) => (
    <WorkBadges assignee={track.assignee} presence={presence.get(track.id)} me={me} />
  );

  const assignOne = async (id: number, userId: number | null) => {
    setError(null);
    setBusy(true);
    try {
      const answer = await assignTrack(base, id, userId);
      patch([id], answer.assignee);
    } catch (err) {
      setError(panelErrorText(words, err, words.queue.failed));
    } finally {
      setBusy(false);
    }
  };

  const assignMany = async (ids: readonly number[], userId: number | null) => {
    setError(null);
    setBusy(true);
    try {
      await assignTracks(base, ids, userId);
      await queryClient.invalidateQueries({ queryKey: [...tracksKey, "list"] });
      return true;
    } catch (err) {
      setError(panelErrorText(words, err, words.queue.failed));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    staff,
    mine,
    presence,
    rowExtra,
    assignOne,
    assignMany,
    busy,
    error,
    /** What an assignment of these rows needs the assignee to cover. */
    needed: (tracks: readonly Pick<StaffTrackRow, "decisions">[]) => [
      ...new Set(tracks.flatMap((t) => openDirections(t, mine))),
    ],
    refreshLists: () => queryClient.invalidateQueries({ queryKey: [...tracksKey, "list"] }),
  };
}

export type QueueAssignment = ReturnType<typeof useQueueAssignment>;

/**
 * The page head's actions beside «Скачать выбранные»: assign the selection, split a direction's new
 * queue, and the «Мне назначено» view (the list's `assigned=me`, kept in the address).
 */
export function QueueAssignActions(
  { work, base, rows, selected, onAssigned, label, assignedView }: {
    work: QueueAssignment;
    base: StaffBase;
    rows: readonly StaffTrackRow[];
    selected: ReadonlySet<number>;
    onAssigned: () => void;
    label: (direction: string) => string;
    /** Whether the list shows «Мне назначено» now. */
    assignedView: boolean;
  },
) {
  const words = useReviewTexts();
  const [splitOpen, setSplitOpen] = useState(false);
  const chosen = rows.filter((r) => selected.has(r.id));
  const directions = [...work.mine];
  return (
    <>
      <AssignControl
        staff={work.staff}
        needed={work.needed(chosen)}
        disabled={selected.size === 0}
        busy={work.busy}
        label={words.queue.selection}
        resetOnAssign
        onAssign={async (userId) => {
          if (await work.assignMany([...selected], userId)) onAssigned();
        }}
      />
      <button type="button" className="st-btn" disabled={directions.length === 0} onClick={() => setSplitOpen(true)}>
        {words.split.open}
      </button>
      <Link
        to={`${base}/tracks` as "/"}
        search={(assignedView ? {} : { assigned: "me" }) as never}
        className={assignedView ? "st-btn st-btn-primary" : "st-btn"}
        aria-current={assignedView ? "page" : undefined}
        data-testid="assigned-to-me"
      >
        {words.queue.assignedToMe}
      </Link>
      {splitOpen && (
        <SplitDialog
          base={base}
          open={splitOpen}
          onClose={() => setSplitOpen(false)}
          staff={work.staff}
          directions={directions}
          label={label}
          onDone={() => void work.refreshLists()}
        />
      )}
    </>
  );
}

/**
 * Beside the decision dock: who the playing track is assigned to, who else is listening to it, and
 * the menu that assigns it.
 */
export function DeskAssignment(
  { work, track }: { work: QueueAssignment; track: StaffTrackRow | null },
) {
  if (!track) return null;
  const presence: Presence[] | undefined = work.presence.get(track.id);
  const needed = work.needed([track]);
  return (
    <div className="st-desk-assignment" data-testid="desk-assignment">
      <WorkBadges assignee={track.assignee} presence={presence} me={auth.user?.id} />
      {needed.length > 0 && (
        <AssignControl
          key={track.id}
          staff={work.staff}
          needed={needed}
          busy={work.busy}
          selectedId={track.assignee?.id ?? null}
          onAssign={(userId) => void work.assignOne(track.id, userId)}
        />
      )}
      {work.error && <span className="st-alert st-alert-error" role="alert">{work.error}</span>}
    </div>
  );
}
