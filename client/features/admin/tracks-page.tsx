import { Link } from "@tanstack/react-router";
import { ADMIN_DIRECTION_LABELS, DIRECTIONS, isDirection } from "../../../db/directions.ts";
import { ConfirmDialog } from "../../components/staff/modal.tsx";
import { Pagination } from "../../components/staff/pagination.tsx";
import { staffError } from "../../components/staff/staff-error.ts";
import { TrackFilters } from "../../components/staff/track-filters.tsx";
import { TrackTable } from "../../components/staff/track-table.tsx";
import { useDocumentTitle } from "../../components/staff/use-document-title.ts";
import { useStaffTrackList } from "../../components/staff/use-staff-track-list.ts";
import { adminKeys, adminTracksQuery } from "./api.ts";

const DIRECTION_OPTIONS = DIRECTIONS.map((d) => ({ value: d, label: ADMIN_DIRECTION_LABELS[d] }));
const directionLabel = (code: string) => (isDirection(code) ? ADMIN_DIRECTION_LABELS[code] : code);

export function AdminTracksPage() {
  useDocumentTitle("Управление треками");
  const {
    filters,
    setFilters,
    resetFilters,
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
  } = useStaffTrackList({
    base: "/admin",
    keys: adminKeys,
    listQuery: adminTracksQuery,
    clearSelectionOnFilterChange: true,
    refreshDashboardOnDownload: false,
    errors: {
      downloadOne: (err) => staffError(err, "Не удалось скачать трек", "Ошибка скачивания трека"),
      downloadMany: (err) => staffError(err, "Не удалось скачать треки", "Ошибка скачивания треков"),
      delete: (err) => staffError(err, "Не удалось удалить трек", "Ошибка удаления трека"),
    },
  });

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
        onReset={resetFilters}
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
