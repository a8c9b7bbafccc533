import type { AppContext } from "../deps.ts";
import { createTrackAnalysisService } from "./analysis.ts";
import type { Notifications } from "../notifications/notifications.ts";
import { createStatusKeys } from "./processing/status-keys.ts";
import type { Config } from "../config.ts";
import type { Scope } from "../../domain/scope.ts";
import { reviewQueue } from "./review-queue.ts";
import { type FiguresWindow, responseFigures } from "./response-figures.ts";
import { createArtistReads } from "./artist-reads.ts";
import { keptListWrites } from "./kept-lists.ts";
import { createLeaseStore } from "./leases.ts";
import { createStaffReview } from "./review.ts";
import { createUploadRows } from "./uploads.ts";
import { createAssignments } from "./assignments.ts";
import { createTrackComments } from "./comments.ts";
import { createFingerprints } from "./fingerprints.ts";

export * from "./schemas.ts";
export * from "./views.ts";
export type { ArtistHistory, ArtistHistoryItem, OwnedTrack } from "./artist-reads.ts";
export type { CompletedFacts, FailedFacts } from "./leases.ts";
export type { CommentView, SharedComment } from "./comments.ts";

/**
 * The one way to read and write `tracks` rows (docs/decisions/0120-service-boundaries.md): the
 * admin and moderator screens (issues 6 and 7), the artist's calls, uploads, downloads and the
 * processing jobs. Who may see a track is decided in its modules, never by a handler: the staff
 * calls take the signed-in user (or a scope) and see their scope only, the status call takes the
 * user and applies `maySeeTrack`; a track outside one's sight does not exist for the caller (404).
 *
 * `ctx.tracks` is this one front, built once per app; its parts (docs/decisions/0210):
 * - schemas.ts: the HTTP input schemas of the track calls;
 * - views.ts: rows to the staff's track object (one JSON object per row), the list's filters and
 *   sort, the read by id within the caller's sight;
 * - artist-reads.ts: the status poll and who gets its answer, the artist's kept list, the history;
 * - uploads.ts: the hourly quota and an upload's rows;
 * - leases.ts: the processing lease store and the job's verdicts;
 * - review.ts: staff review: the track calls, decisions, listening receipts, edits, downloads;
 * - kept-lists.ts: the rule that every write drops the artist's kept list, after the write;
 * - comments.ts: staff comments pinned to a moment of the audio, shared ones read by the artist;
 * - assignments.ts: who is to decide which pair (issue 24); presence.ts: who is listening now.
 */
export function createTracksService(
  ctx: Pick<AppContext, "db" | "storage" | "kv" | "clock" | "logger" | "users"> & {
    /**
     * The outbox insert joins a decision's batch, so the artist's message exists exactly when the
     * change does; the sender is nudged after the commit and never awaited (decision 0157).
     */
    notifications?: Pick<Notifications, "outbox" | "sender">;
    /** DECISION_NOTIFY_HOLD_S (docs/decisions/0223); left out (some tests): no hold. */
    config?: Pick<Config, "decisionNotifyHoldS">;
  },
) {
  /** The status store's keys; the one instance of the app (its stale set must be shared). */
  const status = createStatusKeys(ctx);
  const reports = createTrackAnalysisService(ctx);
  const writes = keptListWrites(ctx.db, { forget: (...ids) => artist.keptLists.forget(...ids) });
  const comments = createTrackComments(ctx, writes);
  const artist = createArtistReads(ctx, status, comments, reports);

  const review = createStaffReview(ctx, reports, writes, comments);

  /** The audio reports; a saved report (or its error) shows in the owner's list. */
  const analysis: typeof reports = {
    ...reports,
    save: (trackId, a) => writes.afterTrackWrite(trackId, () => reports.save(trackId, a)),
    saveError: (trackId, error) => writes.afterTrackWrite(trackId, () => reports.saveError(trackId, error)),
    // A new report may change the length and warnings the artist sees.
    saveReanalysis: (trackId, a, owner) =>
      writes.afterTrackWrite(trackId, () => reports.saveReanalysis(trackId, a, owner)),
  };

  return {
    /** The status keys (batch ids, statuses, error lines, success text) the processing page reads. */
    status,
    // The artist's side.
    ...artist.reads,
    ...createUploadRows(ctx, status, writes),
    // The processing job (leases: docs/decisions/0170).
    ...createLeaseStore(ctx, writes),
    // The staff screens.
    ...review,
    /** The staff track detail carries the track's comments, by moment (issue 24). */
    async detail(...args: Parameters<typeof review.detail>) {
      const track = await review.detail(...args);
      return { ...track, comments: await comments.ofTrack(track.id) };
    },
    /** Comments pinned to a moment of the audio (issue 24, decisions 0231, 0232). */
    comments,
    /** The audio reports (written by processing and the start-up pass). */
    analysis,
    /** The audio fingerprints and their segment index (issue 25, docs/decisions/0247). */
    fingerprints: createFingerprints(ctx),
    /** Who is to decide which pair (issue 24, docs/decisions/0233). */
    assignments: createAssignments(ctx),
    /** The dashboards' new, shortlisted and overdue per direction in the scope (issue 23). */
    reviewQueue: (scope: Scope) => reviewQueue(ctx.db, scope, ctx.clock.now()),
    /** The dashboards' response figures for the tracks uploaded in the window (issue 24, 0235). */
    responseFigures: (scope: Scope, window: FiguresWindow, staff: "all" | number) =>
      responseFigures(ctx.db, scope, window, ctx.clock.now(), staff),
  };
}

export type TracksService = ReturnType<typeof createTracksService>;
