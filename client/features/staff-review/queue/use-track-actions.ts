import { useQueryClient } from "@tanstack/react-query";
import { type Dispatch, type SetStateAction, useState } from "react";
import { downloadTracks } from "../api/download.ts";
import {
  type StaffBase,
  type StaffTrack,
  type StaffTrackRow,
  type TrackList,
  useStaffTrackDelete,
} from "../../../lib/staff-queries.ts";

interface TrackActionsOptions {
  base: StaffBase;
  keys: { tracks: readonly string[]; dashboard: readonly string[] };
  /** The moderator dashboard counts downloaded tracks, so a download refreshes it. */
  refreshDashboardOnDownload: boolean;
  errors: {
    downloadOne: (err: unknown) => string;
    downloadMany: (err: unknown) => string;
    delete: (err: unknown) => string;
  };
  /** The list's selection: a bulk download clears it, a deleted track leaves it. */
  selected: ReadonlySet<number>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
}

/**
 * A staff list's actions on its rows (spec 2 "Admin tracks list", "Moderator tracks"): one track's
 * download or the selection's, each marking the tracks downloaded in the cache, and delete with
 * confirmation; the error of the last one that failed.
 */
export function useTrackActions(
  { base, keys, refreshDashboardOnDownload, errors, selected, setSelected }: TrackActionsOptions,
) {
  const queryClient = useQueryClient();
  const [toDelete, setToDelete] = useState<StaffTrackRow | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const remove = useStaffTrackDelete(base, keys);

  const markDownloaded = (ids: number[]) => {
    const set = new Set(ids);
    queryClient.setQueriesData<TrackList>(
      { queryKey: [...keys.tracks, "list"] },
      (old) => old && { ...old, tracks: old.tracks.map((t) => (set.has(t.id) ? { ...t, downloaded: true } : t)) },
    );
    for (const id of ids) {
      queryClient.setQueryData<StaffTrack>([...keys.tracks, "one", id], (old) => old && { ...old, downloaded: true });
    }
    if (refreshDashboardOnDownload) void queryClient.invalidateQueries({ queryKey: keys.dashboard });
  };

  const downloadOne = async (track: StaffTrackRow) => {
    setActionError(null);
    setBusyId(track.id);
    try {
      await downloadTracks(base, [track.id]);
      markDownloaded([track.id]);
    } catch (err) {
      setActionError(errors.downloadOne(err));
    } finally {
      setBusyId(null);
    }
  };

  const downloadSelected = async () => {
    const ids = [...selected];
    if (ids.length === 0) return;
    setActionError(null);
    setBulkBusy(true);
    try {
      await downloadTracks(base, ids);
      markDownloaded(ids);
      setSelected(new Set());
    } catch (err) {
      setActionError(errors.downloadMany(err));
    } finally {
      setBulkBusy(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setActionError(null);
    try {
      await remove.mutateAsync(toDelete.id);
      setSelected((s) => {
        const next = new Set(s);
        next.delete(toDelete.id);
        return next;
      });
      setToDelete(null);
    } catch (err) {
      setToDelete(null);
      setActionError(errors.delete(err));
    } finally {
      setDeleting(false);
    }
  };

  return {
    toDelete,
    setToDelete,
    deleting,
    actionError,
    busyId,
    bulkBusy,
    downloadOne,
    downloadSelected,
    confirmDelete,
  };
}
