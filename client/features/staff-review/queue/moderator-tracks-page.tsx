import { ReviewPlayerBar } from "../dock/review-player-bar.tsx";
import { useMemo } from "react";
import { ConfirmDialog } from "../../../components/ui/modal.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { useTrackReview } from "../dock/use-track-review.ts";
import { TrackFiltersPanel } from "./track-filters-panel.tsx";
import { TrackRows } from "./track-rows.tsx";
import { MODERATOR_PANEL_TEXTS } from "../texts/panel-texts.ts";
import { ReviewTextsContext } from "../texts/review-texts-context.ts";
import { useDocumentTitle } from "../../../components/ui/use-document-title.ts";
import { useStaffTrackList } from "./use-staff-track-list.ts";
import { QueueAssignActions, useQueueAssignment } from "../assignment/queue-assignment.tsx";
import { errorText } from "../../../lib/api.ts";
import { MODERATOR_PAGE_SIZE, moderatorTracksQuery } from "../api/moderator-tracks-api.ts";
import { moderatorKeys } from "../../../lib/staff-queries.ts";
import { canManage, categoryLabel, categoryNames, managedDirections } from "../../../lib/moderator-categories.ts";
import { describeLoadError, NO_RESPONSE_TEXT } from "../api/track-errors.ts";
import { useModeratorStatus } from "../../../lib/moderator-status.ts";

const TABLE_TEXTS = { ...MODERATOR_PANEL_TEXTS.table, empty: "No tracks match the filters" };

const TEXTS = MODERATOR_PANEL_TEXTS;

/** Manage Tracks in the moderator panel's words (issue 31): the shared pieces read the English dictionary. */
export function ModeratorTracksPage() {
  return (
    <ReviewTextsContext value={TEXTS.review}>
      <ModeratorTracks />
    </ReviewTextsContext>
  );
}

/** Manage Tracks: the tracks of the moderator's categories (spec 2 "Moderator tracks"). */
function ModeratorTracks() {
  useDocumentTitle("Manage Tracks");
  const { status } = useModeratorStatus();
  const categories = status?.categories ?? [];
  const names = status ? categoryNames(status.categories) : [];
  const tracks = useStaffTrackList({
    base: "/moderator",
    keys: moderatorKeys,
    // The moderator list has a fixed page size (MODERATOR_PAGE_SIZE), so the size is not part of its key.
    listQuery: ({ page_size: _pageSize, ...p }) => moderatorTracksQuery(p),
    clearSelectionOnFilterChange: false,
    refreshDashboardOnDownload: true,
    errors: {
      downloadOne: (err) => errorText(err, "Failed to download track(s)", NO_RESPONSE_TEXT),
      downloadMany: (err) => errorText(err, "Failed to download track(s)", NO_RESPONSE_TEXT),
      delete: (err) => errorText(err, "Failed to delete track", NO_RESPONSE_TEXT),
    },
  });
  const { query, list } = tracks;
  const review = useTrackReview({
    base: "/moderator",
    keys: moderatorKeys,
    list: tracks,
    texts: TEXTS.player,
    commentTexts: TEXTS.comments,
    canDecide: (d) => canManage(d, categories),
  });
  // Issue 24: who is assigned, who is listening (the player's track too, however it was opened), and the assign actions.
  const work = useQueueAssignment({
    base: "/moderator",
    tracksKey: moderatorKeys.tracks,
    rows: list?.tracks ?? [],
    playing: review.player.current?.id ?? null,
  });

  const directionOptions = useMemo(
    () => managedDirections(categories).map((d) => ({ value: d, label: categoryLabel(d) })),
    [categories],
  );

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
            disabled={tracks.selected.size === 0 || tracks.bulkBusy}
            onClick={tracks.downloadSelected}
          >
            {tracks.bulkBusy ? "Preparing..." : "Download Selected"}
            {tracks.selected.size > 0 ? ` (${tracks.selected.size})` : ""}
          </button>
          <QueueAssignActions
            work={work}
            base="/moderator"
            rows={list?.tracks ?? []}
            selected={tracks.selected}
            onAssigned={() => tracks.setSelected(new Set())}
            label={categoryLabel}
            assignedView={tracks.search.assigned === "me"}
          />
        </div>
      </div>

      <TrackFiltersPanel
        value={tracks.filters}
        onChange={tracks.setFilters}
        onReset={tracks.resetFilters}
        directions={directionOptions}
        texts={TEXTS.filters}
        panelTexts={TEXTS.filterPanel}
      />

      {tracks.actionError && <div className="st-alert st-alert-error" role="alert">{tracks.actionError}</div>}

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
            : (
              <p className="st-muted" style={{ margin: 0 }}>
                You have no moderation categories assigned. Ask an administrator to assign some.
              </p>
            )}
        </div>
      )}

      {!loadError && list && !noTracksAtAll && (
        <>
          <TrackRows
            tracks={list.tracks}
            selected={tracks.selected}
            onSelectedChange={tracks.setSelected}
            editHref={(id) => `/moderator/tracks/${id}/edit`}
            onDownload={tracks.downloadOne}
            onDelete={tracks.setToDelete}
            directionLabel={categoryLabel}
            busyId={tracks.busyId}
            texts={TABLE_TEXTS}
            review={review.table}
            sort={{ value: tracks.sort, onChange: tracks.setSort }}
            rowExtra={work.rowExtra}
            stale={query.isPlaceholderData}
          />
          {list.filtered > MODERATOR_PAGE_SIZE && (
            <Pagination
              page={Math.min(tracks.page, Math.max(1, list.pages))}
              pages={Math.max(1, list.pages)}
              onPageChange={tracks.setPage}
              pageInput={false}
              counts={{ shown: list.tracks.length, filtered: list.filtered, total: list.total }}
              texts={TEXTS.pagination}
            />
          )}
          <ReviewPlayerBar
            review={review}
            work={work}
            rows={list.tracks}
            base="/moderator"
            tracksKey={moderatorKeys.tracks}
            label={categoryLabel}
            texts={TEXTS.player}
          />
        </>
      )}

      <ConfirmDialog
        open={tracks.toDelete !== null}
        title="Confirm Delete"
        message={<>Are you sure you want to delete track "{tracks.toDelete?.filename}"?</>}
        warning="This action cannot be undone."
        confirmLabel="Delete"
        busyLabel="Deleting..."
        cancelLabel="Cancel"
        closeLabel="Close"
        busy={tracks.deleting}
        onConfirm={tracks.confirmDelete}
        onCancel={() => tracks.setToDelete(null)}
      />
    </section>
  );
}
