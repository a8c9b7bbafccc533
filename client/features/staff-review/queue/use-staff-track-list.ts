import { type QueryKey, useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { useLocation, useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useMemo, useRef, useState } from "react";
import type { StaffBase, TrackList } from "../../../lib/staff-queries.ts";
import type { TrackFilterValues } from "./track-filters.tsx";
import {
  parseTrackListSearch,
  rememberTrackListPlace,
  type TrackListSearch,
  type TrackSort,
} from "./track-list-search.ts";
import { useDebouncedValue } from "../../../components/ui/use-debounced-value.ts";
import { useTrackActions } from "./use-track-actions.ts";

/**
 * The state of a staff tracks list (spec 2 "Admin tracks list", "Moderator tracks"): filters with the
 * text ones debounced, the sort, the page, the selection, downloads that mark tracks downloaded in
 * the cache, and delete with confirmation (use-track-actions.ts). Each panel keeps its own screen, texts and list query.
 * Filters, sort, page and page size live in the address (track-list-search.ts, decision 0141): a
 * select, the sort, the page or the page size adds a history entry; typing replaces the current one.
 */
export interface StaffTrackListParams extends TrackFilterValues {
  page: number;
  page_size: number;
  /** `field` or `-field`; the server's default is `-upload_date`. */
  sort: TrackSort;
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
  const navigate = useNavigate();
  // While the router moves to or from another page (the edit page loading), this one may render with
  // that page's address: it keeps reading its own, and writes nothing, until it is gone.
  const pathname = useLocation({ select: (l) => l.pathname });
  const here = pathname.replace(/\/+$/, "") === `${base}/tracks`;
  const rawSearch = useSearch({ strict: false });
  const ownSearch = useRef(rawSearch);
  if (here) ownSearch.current = rawSearch;
  const search = parseTrackListSearch(ownSearch.current);
  const page = search.page ?? 1;
  const pageSize = search.page_size ?? DEFAULT_TRACK_PAGE_SIZE;
  const sort: TrackSort = search.sort ?? "-upload_date";
  const go = (next: Record<string, unknown>, replace = false, resetScroll = true) => {
    if (here) void navigate({ to: ".", search: parseTrackListSearch(next) as never, replace, resetScroll });
  };
  const [selected, setSelected] = useState<Set<number>>(new Set());

  // The text filters show what is typed at once; the address (and so the list) follows once typing
  // has settled for 300 ms. `pushed` is the text last written to the address, so a change that comes
  // from elsewhere (Back, a link, Reset) is told apart and copied into the inputs.
  const [text, setText] = useState({ filename: search.filename ?? "", user: search.user ?? "" });
  const typed = useDebouncedValue(text, 300);
  const pushed = useRef(text);
  useEffect(() => {
    if (typed.filename === (search.filename ?? "") && typed.user === (search.user ?? "")) return;
    pushed.current = typed;
    go({ ...search, filename: typed.filename, user: typed.user, page: undefined }, true);
  }, [typed]);
  useEffect(() => {
    const now = { filename: search.filename ?? "", user: search.user ?? "" };
    if (now.filename === pushed.current.filename && now.user === pushed.current.user) return;
    pushed.current = now;
    setText(now);
  }, [search.filename, search.user]);

  const filters: TrackFilterValues = {
    filename: text.filename,
    user: text.user,
    date: search.date ?? "",
    direction: search.direction ?? "",
    downloaded: search.downloaded === undefined ? "" : String(search.downloaded),
    warning: search.warning ?? "",
    review: search.review ?? "",
    assigned: search.assigned ?? "",
    votes: search.votes ?? "",
    ai_use: search.ai_use ?? "",
  };
  const params = useMemo(
    (): StaffTrackListParams => ({
      filename: search.filename ?? "",
      user: search.user ?? "",
      date: filters.date,
      direction: filters.direction,
      downloaded: filters.downloaded,
      warning: filters.warning,
      review: filters.review,
      assigned: filters.assigned,
      votes: filters.votes,
      ai_use: filters.ai_use,
      page,
      page_size: pageSize,
      sort,
    }),
    [
      search.filename,
      search.user,
      filters.date,
      filters.direction,
      filters.downloaded,
      filters.warning,
      filters.review,
      filters.assigned,
      filters.votes,
      filters.ai_use,
      page,
      pageSize,
      sort,
    ],
  );
  const query = useQuery(listQuery(params));
  const list = query.data;

  // The way back from the edit page returns here (track-list-search.ts), with what was typed even if
  // the page is left before the address caught up with it.
  useEffect(
    () => rememberTrackListPlace(base, { ...search, filename: text.filename, user: text.user }),
    [JSON.stringify(search), text],
  );

  // The admin list drops its selection when the filters change, however they changed (Back included).
  const filterKey = JSON.stringify([
    params.filename,
    params.user,
    params.date,
    params.direction,
    params.downloaded,
    params.warning,
    params.review,
    params.assigned,
    params.votes,
    params.ai_use,
  ]);
  useEffect(() => {
    if (clearSelectionOnFilterChange) setSelected((s) => (s.size === 0 ? s : new Set()));
  }, [filterKey]);
  // Keeps the page inside the list once the list answers (rows deleted, a narrower filter, an old link):
  // the server answers with the last page when asked for one past it.
  useEffect(() => {
    if (list && !query.isPlaceholderData && list.page !== page) go({ ...search, page: list.page }, true);
  }, [list, page]);

  /** A new filter starts at page 1. Text is debounced (above); the other filters apply at once. */
  const setFilters = (next: TrackFilterValues) => {
    setText({ filename: next.filename, user: next.user });
    const selectsChanged = next.date !== filters.date || next.direction !== filters.direction ||
      next.downloaded !== filters.downloaded || next.warning !== filters.warning || next.review !== filters.review ||
      next.assigned !== filters.assigned || next.votes !== filters.votes || next.ai_use !== filters.ai_use;
    if (!selectsChanged) return;
    pushed.current = { filename: next.filename, user: next.user };
    go({
      ...search,
      ...next,
      downloaded: next.downloaded === "" ? undefined : next.downloaded === "true",
      page: undefined,
    });
  };
  const resetFilters = () => {
    const empty = { filename: "", user: "" };
    setText(empty);
    pushed.current = empty;
    go({ sort: search.sort, page_size: search.page_size });
  };
  const setPage = (p: number) => go({ ...search, page: p });
  const setPageSize = (n: number) => go({ ...search, page_size: n, page: undefined });
  const setSort = (next: TrackSort) => go({ ...search, sort: next, page: undefined });
  /** The track the player holds (issue 23): written over the current entry, so Back skips the tracks played. */
  const setTrack = (id: number | null) => {
    // The address follows the playing track without moving the page: the desk keeps the queue in
    // view itself (issue 31).
    if ((search.track ?? null) !== id) go({ ...search, track: id ?? undefined }, true, false);
  };

  const actions = useTrackActions({ base, keys, refreshDashboardOnDownload, errors, selected, setSelected });

  return {
    filters,
    setFilters,
    resetFilters,
    page,
    setPage,
    pageSize,
    setPageSize,
    sort,
    setSort,
    setTrack,
    search: search as TrackListSearch,
    query,
    list,
    selected,
    setSelected,
    ...actions,
  };
}
