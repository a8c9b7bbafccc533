import { ReviewPlayerBar } from "../dock/review-player-bar.tsx";
import { Link } from "@tanstack/react-router";
import { DIRECTIONS, isDirection } from "../../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../../../domain/staff-directions.ts";
import { ConfirmDialog } from "../../../components/ui/modal.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { PLAYER_TEXTS_RU } from "../texts/player-texts.ts";
import { COMMENT_TEXTS_RU } from "../texts/comment-texts.ts";
import { useTrackReview } from "../dock/use-track-review.ts";
import { TrackFiltersPanel } from "./track-filters-panel.tsx";
import { TrackRows } from "./track-rows.tsx";
import { useDocumentTitle } from "../../../components/ui/use-document-title.ts";
import { useStaffTrackList } from "./use-staff-track-list.ts";
import { QueueAssignActions, useQueueAssignment } from "../assignment/queue-assignment.tsx";
import { errorText } from "../../../lib/api.ts";
import { adminKeys } from "../../../lib/staff-queries.ts";
import { adminTracksQuery } from "../api/admin-tracks-api.ts";

const DIRECTION_OPTIONS = DIRECTIONS.map((d) => ({ value: d, label: ADMIN_DIRECTION_LABELS[d] }));
const directionLabel = (code: string) => (isDirection(code) ? ADMIN_DIRECTION_LABELS[code] : code);

export function AdminTracksPage() {
  useDocumentTitle("Управление треками");
  const tracks = useStaffTrackList({
    base: "/admin",
    keys: adminKeys,
    listQuery: adminTracksQuery,
    clearSelectionOnFilterChange: true,
    refreshDashboardOnDownload: false,
    errors: {
      downloadOne: (err) => errorText(err, "Не удалось скачать трек", "Ошибка скачивания трека"),
      downloadMany: (err) => errorText(err, "Не удалось скачать треки", "Ошибка скачивания треков"),
      delete: (err) => errorText(err, "Не удалось удалить трек", "Ошибка удаления трека"),
    },
  });
  const { query, list } = tracks;
  const review = useTrackReview({
    base: "/admin",
    keys: adminKeys,
    list: tracks,
    texts: PLAYER_TEXTS_RU,
    commentTexts: COMMENT_TEXTS_RU,
    canDecide: () => true,
  });
  // Issue 24: who is assigned, who is listening (the player's track too, however it was opened), and the assign actions.
  const work = useQueueAssignment({
    base: "/admin",
    tracksKey: adminKeys.tracks,
    rows: list?.tracks ?? [],
    playing: review.player.current?.id ?? null,
  });

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление треками</h1>
        <div className="st-page-actions">
          <button
            type="button"
            className="st-btn st-btn-primary"
            disabled={tracks.selected.size === 0 || tracks.bulkBusy}
            onClick={tracks.downloadSelected}
          >
            Скачать выбранные{tracks.selected.size > 0 ? ` (${tracks.selected.size})` : ""}
          </button>
          <QueueAssignActions
            work={work}
            base="/admin"
            rows={list?.tracks ?? []}
            selected={tracks.selected}
            onAssigned={() => tracks.setSelected(new Set())}
            label={directionLabel}
            assignedView={tracks.search.assigned === "me"}
          />
          <Link to="/admin/tracks/edit" className="st-btn">Добавить трек</Link>
        </div>
      </div>

      <TrackFiltersPanel
        value={tracks.filters}
        onChange={tracks.setFilters}
        onReset={tracks.resetFilters}
        directions={DIRECTION_OPTIONS}
      />

      {tracks.actionError && <div className="st-alert st-alert-error" role="alert">{tracks.actionError}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить треки", "Ошибка загрузки треков")}
        </div>
      )}
      {query.isPending && <p className="st-muted">Загрузка треков...</p>}

      {list && (
        <>
          <TrackRows
            tracks={list.tracks}
            selected={tracks.selected}
            onSelectedChange={tracks.setSelected}
            editHref={(id) => `/admin/tracks/${id}/edit`}
            onDownload={tracks.downloadOne}
            onDelete={tracks.setToDelete}
            directionLabel={directionLabel}
            busyId={tracks.busyId}
            review={review.table}
            sort={{ value: tracks.sort, onChange: tracks.setSort }}
            rowExtra={work.rowExtra}
            stale={query.isPlaceholderData}
          />
          <Pagination
            page={Math.min(tracks.page, Math.max(1, list.pages))}
            pages={Math.max(1, list.pages)}
            onPageChange={tracks.setPage}
            pageSize={tracks.pageSize}
            onPageSizeChange={tracks.setPageSize}
            counts={{ shown: list.tracks.length, filtered: list.filtered, total: list.total }}
          />
          <ReviewPlayerBar
            review={review}
            work={work}
            rows={list.tracks}
            base="/admin"
            tracksKey={adminKeys.tracks}
            label={directionLabel}
            texts={PLAYER_TEXTS_RU}
          />
        </>
      )}

      <ConfirmDialog
        open={tracks.toDelete !== null}
        title="Удаление трека"
        message={<>Вы уверены, что хотите удалить трек «{tracks.toDelete?.filename}»?</>}
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={tracks.deleting}
        onConfirm={tracks.confirmDelete}
        onCancel={() => tracks.setToDelete(null)}
      />
    </section>
  );
}
