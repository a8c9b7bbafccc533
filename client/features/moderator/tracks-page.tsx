import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { downloadTracks } from "../../components/staff/download.ts";
import { ConfirmDialog } from "../../components/staff/modal.tsx";
import { Pagination, PAGINATION_TEXTS_EN } from "../../components/staff/pagination.tsx";
import { TRACK_FILTER_TEXTS_EN, TrackFilters } from "../../components/staff/track-filters.tsx";
import { TRACK_TABLE_TEXTS_EN, TrackTable } from "../../components/staff/track-table.tsx";
import { EMPTY_TRACK_FILTERS, type StaffTrack, type TrackFilterValues } from "../../components/staff/track-types.ts";
import { useDebouncedValue } from "../../components/staff/use-debounced-value.ts";
import { useDocumentTitle } from "../../components/staff/use-document-title.ts";
import { api } from "../../lib/api.ts";
import { MODERATOR_PAGE_SIZE, moderatorKeys, moderatorTracksQuery, type TrackList } from "./api.ts";
import { categoryLabel, categoryNames, managedDirections } from "./categories.ts";
import { actionErrorText, describeLoadError } from "./track-errors.ts";
import { useModeratorStatus } from "./use-moderator-status.ts";

const TABLE_TEXTS = { ...TRACK_TABLE_TEXTS_EN, empty: "No tracks match the filters" };

/** Manage Tracks: the tracks of the moderator's categories (spec 2 "Moderator tracks"). */
export function ModeratorTracksPage() {
  useDocumentTitle("Manage Tracks");
  const queryClient = useQueryClient();
  const { status } = useModeratorStatus();
  const categories = status?.categories ?? [];
  const names = status ? categoryNames(status.categories) : [];
  const [filters, setFilters] = useState<TrackFilterValues>(EMPTY_TRACK_FILTERS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [toDelete, setToDelete] = useState<StaffTrack | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);

  const typed = useDebouncedValue({ filename: filters.filename, user: filters.user }, 300);
  const params = useMemo(
    () => ({ ...filters, filename: typed.filename, user: typed.user, page }),
    [filters.date, filters.direction, filters.downloaded, typed.filename, typed.user, page],
  );
  const query = useQuery(moderatorTracksQuery(params));
  const list = query.data;

  useEffect(() => setPage(1), [typed.filename, typed.user, filters.date, filters.direction, filters.downloaded]);
  useEffect(() => {
    if (list && list.pages > 0 && page > list.pages) setPage(list.pages);
  }, [list, page]);

  const directionOptions = useMemo(
    () => managedDirections(categories).map((d) => ({ value: d, label: categoryLabel(d) })),
    [categories],
  );

  const markDownloaded = (ids: number[]) => {
    const set = new Set(ids);
    queryClient.setQueriesData<TrackList>({ queryKey: [...moderatorKeys.tracks, "list"] }, (old) =>
      old && { ...old, tracks: old.tracks.map((t) => (set.has(t.id) ? { ...t, downloaded: true } : t)) });
    for (const id of ids) {
      queryClient.setQueryData<StaffTrack>([...moderatorKeys.tracks, "one", id], (old) => old && { ...old, downloaded: true });
    }
    void queryClient.invalidateQueries({ queryKey: moderatorKeys.dashboard });
  };

  const download = async (ids: number[], one: boolean) => {
    if (ids.length === 0) return;
    setActionError(null);
    if (one) setBusyId(ids[0]);
    else setBulkBusy(true);
    try {
      await downloadTracks("/moderator", ids);
      markDownloaded(ids);
      if (!one) setSelected(new Set());
    } catch (err) {
      setActionError(actionErrorText(err, "Failed to download track(s)"));
    } finally {
      setBusyId(null);
      setBulkBusy(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setActionError(null);
    try {
      await api(`/moderator/tracks/${toDelete.id}`, { method: "DELETE" });
      setSelected((s) => {
        const next = new Set(s);
        next.delete(toDelete.id);
        return next;
      });
      setToDelete(null);
      await queryClient.invalidateQueries({ queryKey: moderatorKeys.tracks });
      void queryClient.invalidateQueries({ queryKey: moderatorKeys.dashboard });
    } catch (err) {
      setToDelete(null);
      setActionError(actionErrorText(err, "Failed to delete track"));
    } finally {
      setDeleting(false);
    }
  };

  const loadError = query.isError ? describeLoadError(query.error) : null;
  const noTracksAtAll = list !== undefined && list.total === 0;

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Manage Tracks</h1>
        <div className="st-page-actions">
          <button
            type="button"
            className="st-btn st-btn-primary"
            disabled={selected.size === 0 || bulkBusy}
            onClick={() => download([...selected], false)}
          >
            {bulkBusy ? "Preparing..." : "Download Selected"}
            {selected.size > 0 ? ` (${selected.size})` : ""}
          </button>
        </div>
      </div>

      <TrackFilters
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(EMPTY_TRACK_FILTERS)}
        directions={directionOptions}
        texts={TRACK_FILTER_TEXTS_EN}
      />

      {actionError && <div className="st-alert st-alert-error" role="alert">{actionError}</div>}

      {query.isPending && <p className="st-muted" role="status">Loading tracks...</p>}

      {loadError && (
        <div className="mod-error-block" role="alert" data-error-kind={loadError.kind}>
          <h2>{loadError.title}</h2>
          <p>{loadError.message}</p>
          {loadError.details && <p className="mod-error-details">{loadError.details}</p>}
          <p className="mod-tags">
            <span>Your categories:</span>
            {status && names.length === 0 && <span className="st-badge">No categories assigned</span>}
            {names.map((n) => <span key={n} className="st-badge">{n}</span>)}
          </p>
          <button type="button" className="st-btn" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching ? "Retrying..." : "Retry"}
          </button>
        </div>
      )}

      {!loadError && noTracksAtAll && (
        <div className="st-section mod-empty">
          <h2>No tracks found for your moderation categories</h2>
          {names.length > 0
            ? (
              <>
                <p className="st-muted" style={{ margin: 0 }}>Available categories:</p>
                <ul>{names.map((n) => <li key={n} className="st-badge">{n}</li>)}</ul>
              </>
            )
            : <p className="st-muted" style={{ margin: 0 }}>You have no moderation categories assigned. Ask an administrator to assign some.</p>}
        </div>
      )}

      {!loadError && list && !noTracksAtAll && (
        <>
          <TrackTable
            tracks={list.tracks}
            selected={selected}
            onSelectedChange={setSelected}
            editHref={(id) => `/moderator/tracks/${id}/edit`}
            onDownload={(t) => download([t.id], true)}
            onDelete={setToDelete}
            directionLabel={categoryLabel}
            busyId={busyId}
            texts={TABLE_TEXTS}
          />
          {list.filtered > MODERATOR_PAGE_SIZE && (
            <Pagination
              page={Math.min(page, Math.max(1, list.pages))}
              pages={Math.max(1, list.pages)}
              onPageChange={setPage}
              pageInput={false}
              counts={{ shown: list.tracks.length, filtered: list.filtered, total: list.total }}
              texts={PAGINATION_TEXTS_EN}
            />
          )}
        </>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title="Confirm Delete"
        message={<>Are you sure you want to delete track "{toDelete?.filename}"?</>}
        warning="This action cannot be undone."
        confirmLabel="Delete"
        busyLabel="Deleting..."
        cancelLabel="Cancel"
        closeLabel="Close"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
