import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useMemo, useState } from "react";
import { ADMIN_DIRECTION_LABELS, DIRECTIONS, isDirection } from "../../../db/directions.ts";
import { downloadTracks } from "../../components/staff/download.ts";
import { ConfirmDialog } from "../../components/staff/modal.tsx";
import { Pagination } from "../../components/staff/pagination.tsx";
import { staffError } from "../../components/staff/staff-error.ts";
import { TrackFilters } from "../../components/staff/track-filters.tsx";
import { TrackTable } from "../../components/staff/track-table.tsx";
import { EMPTY_TRACK_FILTERS, type StaffTrack, type TrackFilterValues } from "../../components/staff/track-types.ts";
import { useDebouncedValue } from "../../components/staff/use-debounced-value.ts";
import { useDocumentTitle } from "../../components/staff/use-document-title.ts";
import { api } from "../../lib/api.ts";
import { adminKeys, adminTracksQuery, type TrackList } from "./api.ts";

const DIRECTION_OPTIONS = DIRECTIONS.map((d) => ({ value: d, label: ADMIN_DIRECTION_LABELS[d] }));
const directionLabel = (code: string) => (isDirection(code) ? ADMIN_DIRECTION_LABELS[code] : code);
export const DEFAULT_TRACK_PAGE_SIZE = 10;

export function AdminTracksPage() {
  useDocumentTitle("Управление треками");
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

  // Typing in the text filters settles for 300 ms before the list is asked again.
  const typed = useDebouncedValue({ filename: filters.filename, user: filters.user }, 300);
  const params = useMemo(
    () => ({ ...filters, filename: typed.filename, user: typed.user, page, page_size: pageSize }),
    [filters.date, filters.direction, filters.downloaded, typed.filename, typed.user, page, pageSize],
  );
  const query = useQuery(adminTracksQuery(params));
  const list = query.data;

  // A new filter starts at page 1 and drops a selection the admin can no longer see.
  useEffect(() => {
    setPage(1);
    setSelected(new Set());
  }, [typed.filename, typed.user, filters.date, filters.direction, filters.downloaded]);
  useEffect(() => setPage(1), [pageSize]);
  useEffect(() => {
    if (list && list.pages > 0 && page > list.pages) setPage(list.pages);
  }, [list, page]);

  const markDownloaded = (ids: number[]) => {
    const set = new Set(ids);
    queryClient.setQueriesData<TrackList>({ queryKey: [...adminKeys.tracks, "list"] }, (old) =>
      old && { ...old, tracks: old.tracks.map((t) => (set.has(t.id) ? { ...t, downloaded: true } : t)) });
    for (const id of ids) {
      queryClient.setQueryData<StaffTrack>([...adminKeys.tracks, "one", id], (old) => old && { ...old, downloaded: true });
    }
  };

  const downloadOne = async (track: StaffTrack) => {
    setActionError(null);
    setBusyId(track.id);
    try {
      await downloadTracks("/admin", [track.id]);
      markDownloaded([track.id]);
    } catch (err) {
      setActionError(staffError(err, "Не удалось скачать трек", "Ошибка скачивания трека"));
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
      await downloadTracks("/admin", ids);
      markDownloaded(ids);
      setSelected(new Set());
    } catch (err) {
      setActionError(staffError(err, "Не удалось скачать треки", "Ошибка скачивания треков"));
    } finally {
      setBulkBusy(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setActionError(null);
    try {
      await api(`/admin/tracks/${toDelete.id}`, { method: "DELETE" });
      setSelected((s) => {
        const next = new Set(s);
        next.delete(toDelete.id);
        return next;
      });
      setToDelete(null);
      await queryClient.invalidateQueries({ queryKey: adminKeys.tracks });
      await queryClient.invalidateQueries({ queryKey: adminKeys.dashboard });
    } catch (err) {
      setToDelete(null);
      setActionError(staffError(err, "Не удалось удалить трек", "Ошибка удаления трека"));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление треками</h1>
        <div className="st-page-actions">
          <button
            type="button"
            className="st-btn st-btn-primary"
            disabled={selected.size === 0 || bulkBusy}
            onClick={downloadSelected}
          >
            Скачать выбранные{selected.size > 0 ? ` (${selected.size})` : ""}
          </button>
          <Link to="/admin/tracks/edit" className="st-btn">Добавить трек</Link>
        </div>
      </div>

      <TrackFilters
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(EMPTY_TRACK_FILTERS)}
        directions={DIRECTION_OPTIONS}
      />

      {actionError && <div className="st-alert st-alert-error" role="alert">{actionError}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {staffError(query.error, "Не удалось загрузить треки", "Ошибка загрузки треков")}
        </div>
      )}
      {query.isPending && <p className="st-muted">Загрузка треков...</p>}

      {list && (
        <>
          <TrackTable
            tracks={list.tracks}
            selected={selected}
            onSelectedChange={setSelected}
            editHref={(id) => `/admin/tracks/${id}/edit`}
            onDownload={downloadOne}
            onDelete={setToDelete}
            directionLabel={directionLabel}
            busyId={busyId}
          />
          <Pagination
            page={Math.min(page, Math.max(1, list.pages))}
            pages={Math.max(1, list.pages)}
            onPageChange={setPage}
            pageSize={pageSize}
            onPageSizeChange={setPageSize}
            counts={{ shown: list.tracks.length, filtered: list.filtered, total: list.total }}
          />
        </>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title="Удаление трека"
        message={<>Вы уверены, что хотите удалить трек «{toDelete?.filename}»?</>}
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
