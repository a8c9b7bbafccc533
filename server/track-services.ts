import type { AppDeps } from "./deps.ts";
import type { UsersService } from "./users/service.ts";
import { withFeedbackFigures } from "./review/feedback-figures.ts";
import { NO_REVIEW_EVENTS, type ReviewEventsFactory } from "./review/events.ts";
import type { Config } from "./config.ts";
import type { Scope } from "../domain/scope.ts";
import { createTrackAnalysisService } from "./processing/analysis.ts";
import { createStatusKeys } from "./processing/status-keys.ts";
import { createLeaseStore } from "./tracks/leases.ts";
import { createFingerprints } from "./processing/fingerprints.ts";
import { reviewQueue } from "./review/review-queue.ts";
import { type FiguresWindow, responseFigures } from "./review/response-figures.ts";
import { createStaffReview } from "./review/review.ts";
import { createAssignments } from "./review/assignments.ts";
import { createTrackComments } from "./review/comments.ts";
import { createArtistReads } from "./artist/artist-reads.ts";
import { keptListWrites } from "./tracks/kept-lists.ts";
import { createTracksService } from "./tracks/service.ts";
import { createUploadRows } from "./uploads/uploads.ts";

/**
 * The five track capabilities, built once per app from one set of shared parts (docs/decisions/0210,
 * 0325): the status keys, the audio reports, the kept-list rule and the comments are made here once
 * and handed to each capability that needs them.
 *
 * - `ctx.tracks` (tracks/): the row seen by staff: list, read, edit, remove, downloads, the card's read;
 * - `ctx.uploads` (uploads/): the hourly quota and an upload's rows;
 * - `ctx.processing` (processing/): the status keys, the processing leases and verdicts, the audio
 *   reports and fingerprints;
 * - `ctx.review` (review/): decisions and their undo, listening receipts, votes, comments,
 *   assignment, presence, the review queue and the response figures;
 * - `ctx.artist` (artist/): what an artist may see: the status poll, the kept list, the history.
 *
 * Who may see a track is decided inside each, never by a handler: a track outside one's sight does
 * not exist for the caller (404).
 */
export function createTrackServices(
  ctx: Pick<AppDeps, "db" | "storage" | "kv" | "clock" | "logger"> & {
    /** An edited track's owner must exist; a decision names its decider. */
    users: UsersService;
    /**
     * Who reacts to review's changes (the artist's messages, the staff cards), registered at wiring
     * time; its statements join a decision's batch, so a message exists exactly when the change
     * does (decisions 0157, 0327). Left out (some tests): nobody.
     */
    reviewEvents?: ReviewEventsFactory;
    /** DECISION_NOTIFY_HOLD_S (docs/decisions/0223); left out (some tests): no hold. */
    config?: Pick<Config, "decisionNotifyHoldS">;
  },
) {
  /** The status store's keys; the one instance of the app (its stale set must be shared). */
  const status = createStatusKeys(ctx);
  const reports = createTrackAnalysisService(ctx);
  const writes = keptListWrites(ctx.db, { forget: (...ids) => artistReads.keptLists.forget(...ids) });
  const comments = createTrackComments(ctx, writes);
  const artistReads = createArtistReads(ctx, status, comments, reports);
  const staff = createStaffReview(ctx, writes, ctx.reviewEvents?.({ comments }) ?? NO_REVIEW_EVENTS);

  /** The audio reports; a saved report (or its error) shows in the owner's list. */
  const analysis: typeof reports = {
    ...reports,
    save: (trackId, a) => writes.afterTrackWrite(trackId, () => reports.save(trackId, a)),
    saveError: (trackId, error) => writes.afterTrackWrite(trackId, () => reports.saveError(trackId, error)),
    // A new report may change the length and warnings the artist sees.
    saveReanalysis: (trackId, a, owner) =>
      writes.afterTrackWrite(trackId, () => reports.saveReanalysis(trackId, a, owner)),
  };

  const { statusRow, ...artist } = artistReads.reads;

  const tracks = createTracksService({ ...ctx, afterWrite: writes.afterWrite, analysis, comments });

  const review = {
    decide: staff.decide,
    decideTrack: staff.decideTrack,
    undoDecision: staff.undoDecision,
    autoDecline: staff.autoDecline,
    openListen: staff.openListen,
    reportListened: staff.reportListened,
    vote: staff.vote,
    withdrawVote: staff.withdrawVote,
    presence: staff.presence,
    /** Comments pinned to a moment of the audio (issue 24, decisions 0231, 0232). */
    comments,
    /** Who is to decide which pair (issue 24, docs/decisions/0233). */
    assignments: createAssignments(ctx),
    /** The dashboards' new, shortlisted and overdue per direction in the scope (issue 23). */
    reviewQueue: (scope: Scope) => reviewQueue(ctx.db, scope, ctx.clock.now()),
    /** The dashboards' response figures for the tracks uploaded in the window (issue 24, 0235). */
    responseFigures: async (scope: Scope, window: FiguresWindow, staff: "all" | number) =>
      // With the feedback's figures (issue 37): decline reasons and artists' ratings; the ratings'
      // words only in the administrator's view ("all").
      await withFeedbackFigures(
        ctx.db,
        await responseFigures(ctx.db, scope, window, ctx.clock.now(), staff),
        scope,
        window,
        staff === "all",
      ),
  };

  const processing = {
    /** The status keys (batch ids, statuses, error lines, success text) the processing page reads. */
    status,
    /** What the status key of a track holds, read from the database. */
    statusRow,
    // The processing job (leases: docs/decisions/0170).
    ...createLeaseStore(ctx, writes),
    /** The audio reports (written by processing and the start-up pass). */
    analysis,
    /** The audio fingerprints and their segment index (issue 25, docs/decisions/0247). */
    fingerprints: createFingerprints(ctx),
  };

  return { tracks, uploads: createUploadRows(ctx, status, writes), processing, review, artist };
}

export type TrackServices = ReturnType<typeof createTrackServices>;
export type { TracksService } from "./tracks/service.ts";
export type UploadsService = TrackServices["uploads"];
export type ProcessingService = TrackServices["processing"];
export type ReviewService = TrackServices["review"];
export type ArtistService = TrackServices["artist"];
