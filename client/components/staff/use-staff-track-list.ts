import { type QueryKey, useQuery, useQueryClient, type UseQueryOptions } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { downloadTracks } from "./download.ts";
import { type StaffBase, type StaffTrack, type TrackList, useStaffTrackDelete } from "./staff-queries.ts";
import { EMPTY_TRACK_FILTERS, type TrackFilterValues } from "./track-filters.tsx";
import { useDebouncedValue } from "./use-debounced-value.ts";

/**
 * The state of a staff tracks list (spec 2 "Admin tracks list", "Moderator tracks"): filters with the
 * text ones debounced, the page, the selection, downloads that mark tracks downloaded in the cache,
 * and delete with confirmation. Each panel keeps its own screen, texts and list query.
 */
export interface StaffTrackListParams extends TrackFilterValues {
  page: number;
  page_size: number;
}

export const DEFAULT_TRACK_PAGE_SIZE = 10;

export interface StaffTrackListOptions<K extends QueryKey> {
  base: StaffBase;
  keys: { tracks: readonly string[]; dashboard: readonly string[] };
  /** The panel's list query for the current filters, page and page size. */
  listQuery: (params: StaffTrackListParams) => UseQueryOptions<TrackList, Error, TrackList, K>;
  /** The admin list also drops the selection when a filter changes (the rows may no longer be shown). */
  clearSelectionOnFilterChange: boolean;
  /** The moderator dashboard counts downloaded tracks, so a download refreshes it. */
  refreshDashboardOnDownload: boolean;
  errors: {
    downloadOne: (err: unknown) => string;
    downloadMany: (err: unknown) => string;
    delete: (err: unknown) => string;
  };
}

export function useStaffTrackList<K extends QueryKey>(
  { base, keys, listQuery, clearSelectionOnFilterChange, refreshDashboardOnDownload, errors }: StaffTrackListOptions<K>,
) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TrackFilterValues>(EMPTY_TRACK_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_TRACK_PAGE_SIZE);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [toDelete, setToDelete] = useState<StaffTrack | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const remove = useStaffTrackDelete(base, keys);

  // Typing in the text filters settles for 300 ms before the list is asked again.
  const typed = useDebouncedValue({ filename: filters.filename, user: filters.user }, 300);
  const params = useMemo(
    () => ({ ...filters, filename: typed.filename, user: typed.user, page, page_size: pageSize }),
    [filters.date, filters.direction, filters.downloaded, typed.filename, typed.user, page, pageSize],
  );
  const query = useQuery(listQuery(params));
  const list = query.data;

  // A new filter starts at page 1.
  useEffect(() => {
    setPage(1);
    if (clearSelectionOnFilterChange) setSelected(new Set());
  }, [typed.filename, typed.user, filters.date, filters.direction, filters.downloaded]);
  useEffect(() => setPage(1), [pageSize]);
  // Keeps the page inside the list once the list answers (rows deleted, a narrower filter).
  useEffect(() => {
    if (list && list.pages > 0 && page > list.pages) setPage(list.pages);
  }, [list, page]);

  const markDownloaded = (ids: number[]) => {
    const set = new Set(ids);
    queryClient.setQueriesData<TrackList>({ queryKey: [...keys.tracks, "list"] }, (old) =>
      old && { ...old, tracks: old.tracks.map((t) => (set.has(t.id) ? { ...t, downloaded: true } : t)) });
    for (const id of ids) {
      queryClient.setQueryData<StaffTrack>([...keys.tracks, "one", id], (old) => old && { ...old, downloaded: true });
    }
    if (refreshDashboardOnDownload) void queryClient.invalidateQueries({ queryKey: keys.dashboard });
  };

  const downloadOne = async (track: StaffTrack) => {
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
    filters,
    setFilters,
    resetFilters: () => setFilters(EMPTY_TRACK_FILTERS),
    page,
    setPage,
    pageSize,
    setPageSize,
    query,
    list,
    selected,
    setSelected,
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
