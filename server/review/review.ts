import { and, desc, eq, isNotNull, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { trackDecisionHistory, tracks } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import { templateMessage } from "../../domain/decision-message.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest, conflict, forbidden, notFound } from "../lib/http-error.ts";
import { inScope, type Scope, scopeOf } from "../../domain/scope.ts";
import { addPlayed, openListen, trackDuration } from "./listening.ts";
import { isHeard } from "../../domain/listening.ts";
import { mayMove } from "../../domain/decision-states.ts";
import {
  type DecisionInput,
  isAwaitingDecision,
  REVIEW_TEXTS,
  type ReviewStatus,
  type TemplateOutcome,
  type TrackDecisionInput,
} from "../../domain/review.ts";
import { changeStatements, type DecisionView, isConcurrentChange, type PairChange, storedPairs } from "./decisions.ts";
import { syncReviewStatement } from "../tracks/review-column.ts";
import { reasonStatements } from "./reasons.ts";
import { type Current, loadCurrent, viewAs } from "../tracks/staff-reads.ts";
import type { KeptListWrites } from "../tracks/kept-lists.ts";
import { clearStatements, restoreStatement } from "./assignment-sql.ts";
import { presenceOf, recordPresence } from "./presence.ts";
import { NO_REVIEW_EVENTS, type ReviewEvents } from "./events.ts";
import { castVote, type VoteSummary, type VoteView, withdrawVote } from "./votes.ts";
import { VOTE_TEXTS, type VoteInput } from "../../domain/votes.ts";
import type { StaffCaller, Viewer } from "../tracks/views.ts";

/**
 * Staff review (issues 6, 7, 13, 20): the admin and moderator track calls, each applying the
 * caller's current scope (`scopeFor`), the decisions, the listening receipts, the downloads'
 * selection and `downloaded` flag, and the track edits and deletes.
 */

/** A decision's template as the decision needs it (decline-templates/service.ts `templateOf`). */
export type TemplateLookup = (templateId: number) => Promise<{ text: string; outcome: TemplateOutcome } | null>;

/** One pair of a decision call: the revision the form was made from, and what to set. */
interface PairRequest {
  direction: Direction;
  revision: number | undefined;
  fields: Omit<DecisionInput, "revision">;
}

/** Times a decision is computed again after another change of the same pair got in first. */
const DECISION_ATTEMPTS = 3;

type ReviewCtx = Pick<AppDeps, "db" | "clock" | "logger"> & {
  config?: Pick<Config, "decisionNotifyHoldS">;
};

/** What the operations moved out of `createStaffReview` use. */
interface ReviewCore {
  ctx: ReviewCtx;
  db: ReviewCtx["db"];
  holdMs: number;
  afterWrite: KeptListWrites["afterWrite"];
  events: ReviewEvents;
  load: (who: StaffCaller, id: number) => Promise<Current>;
  view: (scope: Scope, id: number, waitingFor?: Scope, who?: StaffCaller) => ReturnType<typeof viewAs>;
}

/**
 * A listening receipt (issue 20, decision 0197): the track's `new` directions within the
 * listener's scope move to `listened`, each with a history entry by the listener. It does not
 * wait on a conflict: a pair another listener moved meanwhile is simply no longer `new`.
 */
async function markListened(rv: ReviewCore, who: Viewer, id: number): Promise<DecisionView[]> {
  const scope = scopeOf(who);
  const current = await rv.load(scope, id);
  const mine = parseDirections(current.directions).filter((d) => inScope(d, scope));
  for (let attempt = 1; attempt <= DECISION_ATTEMPTS; attempt++) {
    const pairs = await storedPairs(rv.db, id, mine);
    const at = rv.ctx.clock.now();
    const changes: PairChange[] = [...pairs]
      .filter(([, before]) => mayMove("listen", before.status, "listened"))
      .map(([direction, before]) => ({
        trackId: id,
        direction,
        before,
        after: { status: "listened" as ReviewStatus, note: before.note, message: before.message },
        by: who.id,
        at,
        holdMs: rv.holdMs,
      }));
    const told = await rv.events.pairsChanged({ changes, track: current });
    const [first, ...rest] = [...changes.flatMap((c) => changeStatements(rv.db, c)), ...told.statements];
    if (!first) break;
    try {
      await rv.afterWrite([current.user_id], () => rv.db.batch([first, ...rest, syncReviewStatement(rv.db, id)]));
      break;
    } catch (err) {
      if (!isConcurrentChange(err)) throw err;
    }
  }
  return (await rv.view("*", id, scope)).decisions;
}

/**
 * The caller's vote on a pair (issue 24, decision 0229): the track within sight (else 404), the
 * direction the track's (else 400) and within the caller's categories (else 403), as for a
 * decision. `vote` null withdraws it. Answers the pair's votes as the caller now sees them.
 */
async function votePair(
  rv: ReviewCore,
  who: Viewer,
  id: number,
  direction: Direction,
  input: VoteInput | null,
): Promise<{ votes: VoteView[]; vote_summary: VoteSummary }> {
  const scope = scopeOf(who);
  const current = await rv.load(scope, id);
  if (!parseDirections(current.directions).includes(direction)) throw badRequest(REVIEW_TEXTS.notTrackDirection);
  if (!inScope(direction, scope)) throw forbidden(VOTE_TEXTS.outsideCategories);
  if (input) {
    await castVote(rv.db, { trackId: id, direction, userId: who.id, ...input, at: rv.ctx.clock.now() });
  } else {
    await withdrawVote(rv.db, id, direction, who.id);
  }
  // The pair's staff card in Telegram shows the new tallies (issue 27).
  await rv.events.voted(id, direction);
  const track = await rv.view(scope, id, scope, who);
  return {
    votes: track.votes.filter((v) => v.direction === direction),
    vote_summary: track.vote_summary.find((s) => s.direction === direction)!,
  };
}

/**
 * The one place a decision is made (decisions 0151, 0199, 0222): the per-pair call and the
 * whole-track call both come here. Outside the caller's sight the track is 404; a direction the
 * track does not have is 400; one outside the caller's categories is 403; a template must exist
 * and belong to the pair's outcome (400); any pair made from another revision than the stored
 * one refuses the whole call with 409 and writes nothing. The changes, their history entries
 * (one `call_id`, so the call can be undone as a whole) and the artist's held messages are
 * one batch. Pairs whose state would not change are not written.
 */
async function decidePairs(
  rv: ReviewCore,
  who: Viewer,
  id: number,
  asked: readonly PairRequest[],
  templateOf: TemplateLookup,
  shape: "pair" | "track",
  /** The response promise's sweep (issue 25): no person decides, the entries say `automatic`. */
  automatic = false,
): Promise<{ decisions: DecisionView[]; notify_at: string | null; undo_until: string | null }> {
  const scope = scopeOf(who);
  const current = await rv.load(scope, id);
  const trackDirections = parseDirections(current.directions);
  for (const a of asked) {
    if (!trackDirections.includes(a.direction)) throw badRequest(REVIEW_TEXTS.notTrackDirection);
    if (!inScope(a.direction, scope)) throw forbidden(REVIEW_TEXTS.outsideCategories);
  }
  const directions = asked.map((a) => a.direction);
  const messages = new Map<Direction, string | null | undefined>();
  for (const a of asked) {
    let message = a.fields.message;
    if (a.fields.template_id !== undefined) {
      const template = await templateOf(a.fields.template_id);
      if (template === null) throw badRequest(REVIEW_TEXTS.templateNotFound);
      if (template.outcome !== a.fields.status) throw badRequest(REVIEW_TEXTS.templateOtherOutcome);
      // The chooser shows the same text (domain/decision-message.ts: one rule for both).
      message = templateMessage(template.text, current.filename, a.direction);
    }
    messages.set(a.direction, message);
  }
  const decisionsNow = async () =>
    (await rv.view("*", id, scope)).decisions.filter((d) => directions.includes(d.direction));
  // Made from another state than the stored one (or from none): refused with what is stored, so
  // the form can show it (decision 0199).
  const stale = async () => {
    const decisions = await decisionsNow();
    // The desk's call names who decided what and when: each pair carries decided_by and decided_at.
    return shape === "pair"
      ? conflict(REVIEW_TEXTS.decisionChanged, { current: decisions[0] })
      : conflict(REVIEW_TEXTS.decidedMeanwhile, { current: decisions, decisions });
  };
  const stored = await storedPairs(rv.db, id, directions);
  if (asked.some((a) => a.revision !== stored.get(a.direction)!.revision)) throw await stale();
  const at = rv.ctx.clock.now();
  const callId = crypto.randomUUID();
  const changes: PairChange[] = [];
  for (const a of asked) {
    const before = stored.get(a.direction)!;
    const message = messages.get(a.direction);
    // Left out: the status stays (a note alone never changes it); the note stays; the message
    // stays only with the same status, since a message belongs to the decision it came with
    // (decision 0151).
    const status = a.fields.status ?? before.status;
    if (!mayMove(automatic ? "automatic" : "decide", before.status, status)) throw await stale();
    const after = {
      status,
      note: a.fields.note !== undefined ? a.fields.note : before.note,
      message: message !== undefined ? message : status === before.status ? before.message : null,
    };
    if (after.status === before.status && after.note === before.note && after.message === before.message) continue;
    changes.push({
      trackId: id,
      direction: a.direction,
      before,
      after,
      by: automatic ? null : who.id,
      at,
      holdMs: rv.holdMs,
      callId,
      automatic,
      reasons: a.fields.reasons,
    });
  }
  const told = await rv.events.pairsChanged({ changes, track: current });
  // A decided pair's assignment ends with the decision, marked with the call so an undo brings it
  // back (issue 24, decision 0233): decided = its status changed to a decision's outcome.
  const decided = changes
    .filter((c) => c.after.status !== c.before.status && !isAwaitingDecision(c.after.status))
    .map((c) => c.direction);
  const [first, ...rest] = [
    ...changes.flatMap((c) => changeStatements(rv.db, c)),
    ...(changes.length > 0 ? clearStatements(rv.db, id, decided, callId) : []),
    ...reasonStatements(rv.db, changes),
  ];
  if (first) {
    try {
      await rv.afterWrite([current.user_id], () =>
        rv.db.batch([
          first,
          ...rest,
          syncReviewStatement(rv.db, id),
          ...told.statements,
        ]));
    } catch (err) {
      // The pair's next revision was taken meanwhile (another instance too): the batch is a
      // compare-and-set on the revisions, and nothing of it was written.
      if (!isConcurrentChange(err)) throw err;
      throw await stale();
    }
    // The artist's messages, and the edits of the pairs' staff cards (issue 27).
    rv.events.committed();
  }
  // When the artist's message leaves: the hold's end, if a message was written to wait.
  const notifyAt = await rv.events.messageDueAt(told.messages);
  // Until when the caller's undo is taken (the hold; decision 0275): a shortlist without a
  // message has nothing to hold back, but the pair can still go back.
  const undoUntil = changes.length > 0 && rv.holdMs > 0 ? new Date(at.getTime() + rv.holdMs).toISOString() : null;
  return { decisions: await decisionsNow(), notify_at: notifyAt, undo_until: undoUntil };
}

/** `undoDecision` of the service (its comment says what it does). */
async function undoDecisionIn(rv: ReviewCore, who: Viewer, id: number): Promise<{ decisions: DecisionView[] }> {
  const scope = scopeOf(who);
  const current = await rv.load(scope, id);
  const h = trackDecisionHistory;
  const [last] = await rv.db.select({ call_id: h.call_id, decided_at: h.decided_at }).from(h)
    .where(and(eq(h.track_id, id), eq(h.decided_by, who.id), isNotNull(h.call_id)))
    .orderBy(desc(h.decided_at), desc(h.id)).limit(1);
  if (!last?.call_id) throw notFound(REVIEW_TEXTS.nothingToUndo);
  const callId = last.call_id;
  const [undone] = await rv.db.select({ id: h.id }).from(h).where(and(eq(h.track_id, id), eq(h.undoes, callId)))
    .limit(1);
  if (undone) throw notFound(REVIEW_TEXTS.nothingToUndo);
  if (last.decided_at.getTime() + rv.holdMs <= rv.ctx.clock.now().getTime()) {
    throw conflict(REVIEW_TEXTS.alreadyTold);
  }
  const entries = (await rv.db.select({ direction: h.direction, revision: h.revision }).from(h)
    .where(and(eq(h.track_id, id), eq(h.call_id, callId))))
    .filter((e) => parseDirections(current.directions).includes(e.direction as Direction));
  const directions = entries.map((e) => e.direction as Direction);
  if (directions.some((d) => !inScope(d, scope))) throw forbidden(REVIEW_TEXTS.outsideCategories);
  const decisionsNow = async () =>
    (await rv.view("*", id, scope)).decisions.filter((d) => directions.includes(d.direction));
  const stale = async () => {
    const decisions = await decisionsNow();
    return conflict(REVIEW_TEXTS.decisionChanged, { current: decisions, decisions });
  };
  const pairs = await storedPairs(rv.db, id, directions);
  if (entries.some((e) => pairs.get(e.direction as Direction)!.revision !== e.revision)) throw await stale();
  // Each pair's state before the call: its history entry one revision earlier (none: `new`).
  const earlier = entries.filter((e) => e.revision > 1);
  const previous = earlier.length === 0 ? [] : await rv.db.select({
    direction: h.direction,
    to: h.to_status,
    note: h.note,
    message: h.message,
  }).from(h).where(and(
    eq(h.track_id, id),
    or(...earlier.map((e) => and(eq(h.direction, e.direction), eq(h.revision, e.revision - 1)))),
  ));
  const at = rv.ctx.clock.now();
  const changes: PairChange[] = entries.map((e) => {
    const direction = e.direction as Direction;
    const p = previous.find((x) => x.direction === direction);
    return {
      trackId: id,
      direction,
      before: pairs.get(direction)!,
      after: p ? { status: p.to, note: p.note, message: p.message } : { status: "new", note: null, message: null },
      by: who.id,
      at,
      holdMs: rv.holdMs,
      undoes: callId,
    };
  });
  if (changes.some((c) => !mayMove("undo", c.before.status, c.after.status))) throw await stale();
  const statements: BatchItem<"sqlite">[] = changes.flatMap((c) => changeStatements(rv.db, c));
  // The assignments the undone call cleared are back (decision 0233).
  statements.push(restoreStatement(rv.db, id, callId));
  // The undone call's messages go, the restored state's come back (notifications, decision 0327).
  statements.push(...(await rv.events.pairsChanged({ changes, track: current, undo: entries })).statements);
  const [first, ...rest] = statements;
  if (first) {
    try {
      await rv.afterWrite([current.user_id], () => rv.db.batch([first, ...rest, syncReviewStatement(rv.db, id)]));
    } catch (err) {
      if (!isConcurrentChange(err)) throw err;
      throw await stale();
    }
    rv.events.committed();
  }
  return { decisions: await decisionsNow() };
}

export function createStaffReview(
  ctx: Pick<AppDeps, "db" | "clock" | "logger"> & {
    config?: Pick<Config, "decisionNotifyHoldS">;
  },
  { afterWrite }: Pick<KeptListWrites, "afterWrite">,
  /** Who reacts to the changes (the artist's messages, the staff cards): decision 0327. */
  events: ReviewEvents = NO_REVIEW_EVENTS,
) {
  const { db } = ctx;
  /** DECISION_NOTIFY_HOLD_S in ms (docs/decisions/0223). */
  const holdMs = (ctx.config?.decisionNotifyHoldS ?? 0) * 1000;

  const load = (who: StaffCaller, id: number): Promise<Current> => loadCurrent(db, who, id);

  /** A track seen with `scope` (views.ts `viewTrack`). */
  const view = (scope: Scope, id: number, waitingFor: Scope = scope, who?: StaffCaller) =>
    viewAs(ctx, scope, id, waitingFor, who);

  const rv: ReviewCore = { ctx, db, holdMs, afterWrite, events, load, view };

  /** Who the automatic decline decides as: every direction in sight, nobody's name written. */
  const PROMISE_SWEEP: Viewer = { id: 0, is_admin: true, is_moderator: false, moderator_categories: "" };
  const noTemplates: TemplateLookup = () => Promise.resolve(null);

  return {
    /**
     * The automatic decline of a pair past its promise and grace (issue 25, server/intake/sweep.ts):
     * `decidePairs` as for a person's decision (history, the artist's held message, assignments),
     * with `automatic` and no decider. Null when the pair no longer awaits a decision; a change that
     * gets in between the read and the write makes it 409 (the caller leaves the pair alone).
     */
    async autoDecline(id: number, direction: Direction, message: string) {
      // Read now: a pair decided, shortlisted or removed since the sweep's read is left alone.
      const [track] = await db.select({ directions: tracks.directions, status: tracks.status }).from(tracks)
        .where(eq(tracks.id, id)).limit(1);
      if (!track || track.status === "failed" || !parseDirections(track.directions).includes(direction)) return null;
      const { status, revision } = (await storedPairs(db, id, [direction])).get(direction)!;
      if (!mayMove("automatic", status, "declined")) return null;
      return await decidePairs(
        rv,
        PROMISE_SWEEP,
        id,
        [{ direction, revision, fields: { status: "declined", message, note: undefined, template_id: undefined } }],
        noTemplates,
        "pair",
        true,
      );
    },

    /** PUT …/tracks/{id}/votes/{direction} (issue 24): the caller's vote, replacing their earlier one. */
    vote: (who: Viewer, id: number, direction: Direction, input: VoteInput) => votePair(rv, who, id, direction, input),

    /** DELETE …/tracks/{id}/votes/{direction}: the caller's vote withdrawn (none: nothing changes). */
    withdrawVote: (who: Viewer, id: number, direction: Direction) => votePair(rv, who, id, direction, null),

    /**
     * PUT …/tracks/{id}/decisions/{direction} (issue 13, decision 0151): `decidePairs` for one pair.
     * A stale revision answers 409 with `current`, the stored decision.
     */
    async decide(
      who: Viewer,
      id: number,
      direction: Direction,
      input: DecisionInput,
      templateOf: TemplateLookup,
    ): Promise<DecisionView> {
      const { revision, ...fields } = input;
      return (await decidePairs(rv, who, id, [{ direction, revision, fields }], templateOf, "pair")).decisions[0];
    },

    /**
     * PUT …/tracks/{id}/decision (issue 23, decision 0222): one decision for every direction of the
     * track within the caller's categories (admins: all), each pair checked with its own revision;
     * `overrides` replaces the fields of a direction. 403 when none is in scope; 400 for an override
     * of a direction the track lacks or outside scope.
     */
    async decideTrack(who: Viewer, id: number, input: TrackDecisionInput, templateOf: TemplateLookup) {
      const scope = scopeOf(who);
      const current = await load(scope, id);
      const all = parseDirections(current.directions);
      const mine = all.filter((d) => inScope(d, scope));
      for (const d of Object.keys(input.overrides ?? {}) as Direction[]) {
        if (!all.includes(d)) throw badRequest(REVIEW_TEXTS.notTrackDirection);
        if (!inScope(d, scope)) throw badRequest(REVIEW_TEXTS.outsideCategories);
      }
      if (mine.length === 0) throw forbidden(REVIEW_TEXTS.nothingInScope);
      const { revisions, overrides, ...base } = input;
      return await decidePairs(
        rv,
        who,
        id,
        mine.map((direction) => ({
          direction,
          revision: revisions[direction],
          fields: overrides?.[direction] ?? base,
        })),
        templateOf,
        "track",
      );
    },

    /**
     * POST …/tracks/{id}/decision/undo (decision 0222): the caller's most recent decision call on the
     * track goes back, every pair it changed to its state before (a new history entry each), and
     * its messages still held are never sent. 404 when there is nothing to undo; 409 once the hold
     * is over (the artist has been told) or when someone changed a pair since.
     */
    async undoDecision(who: Viewer, id: number): Promise<{ decisions: DecisionView[] }> {
      return await undoDecisionIn(rv, who, id);
    },

    /**
     * The listening link was handed out (GET …/listen): the caller's played-time clock for the
     * track starts now (docs/decisions/0197). Opening a track marks nothing.
     */
    async openListen(who: Viewer, id: number): Promise<void> {
      await load(scopeOf(who), id);
      await openListen(db, id, who.id, ctx.clock.now());
    },

    /**
     * POST …/tracks/{id}/listened (issue 20, docs/decisions/0197): the player reports `seconds`
     * played since its previous report. 404 outside the caller's sight, like every call taking a
     * track id; only a track they opened counts (decision 0307). At the threshold (20 s, or all of
     * a shorter track) of their capped total, its `new` directions in their scope become `listened`.
     */
    async reportListened(who: Viewer, id: number, seconds: number) {
      await load(scopeOf(who), id);
      // Who is listening now (issue 24, decision 0234): every report is a heartbeat. Bookkeeping
      // never refuses a report.
      await recordPresence(db, who.id, id, ctx.clock.now()).catch((err) =>
        ctx.logger.warn("presence not recorded", { id, err })
      );
      const durationS = await trackDuration(db, id);
      const heardS = await addPlayed(db, { trackId: id, userId: who.id, seconds, at: ctx.clock.now(), durationS });
      const heard = isHeard(heardS, durationS);
      const decisions = heard ? await markListened(rv, who, id) : (await view(scopeOf(who), id)).decisions;
      return { heard_s: Math.floor(heardS * 10) / 10, duration_s: durationS, heard, decisions };
    },

    /** GET …/tracks/presence (decision 0234): who else played one of `ids` within the last 30 s. */
    async presence(who: Viewer, ids: readonly number[]) {
      return await presenceOf(db, scopeOf(who), ids, who.id, ctx.clock.now());
    },
  };
}
