import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { DECLINE_REASONS, type DeclineReason } from "../../../../domain/decline-reasons.ts";
import { ApiError } from "../../../lib/api.ts";
import { panelErrorText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { StaffBase } from "../../../lib/staff-queries.ts";
import { declineTemplatesQuery } from "../api/decision-queries.ts";
import {
  type DeskDecision,
  type DeskDecisionBody,
  type DeskOutcome,
  type DeskTemplate,
  sendDeskDecision,
  templatesOf,
  undoDeskDecision,
  usePatchDecisions,
} from "../api/desk-queries.ts";
import type { ReviewTrack } from "../player/figures.ts";
import type { ReviewPlayer } from "../player/use-review-player.ts";

/**
 * The review desk's state (issue 23): the decision for the track the player holds, sent for every
 * direction of it within the caller's categories (with a per-direction status where they differ),
 * the template chooser after A or X, the message and the note, and the last decision's hold, during
 * which Z takes it back. After a decision the player moves on at once (the call runs meanwhile);
 * a refusal is shown in the dock with the track's name (decision 0225).
 */

const WAITING: ReadonlySet<string> = new Set(["new", "listened"]);

/** A pair still waits for the caller while nobody has decided or parked it (domain/review.ts). */
export const pairWaits = (d: Pick<DeskDecision, "status">) => WAITING.has(d.status);

export interface DeskOptions {
  base: StaffBase;
  tracksKey: readonly string[];
  player: ReviewPlayer;
  /** False for a direction outside the moderator's categories. */
  canDecide: (d: Direction) => boolean;
}

export interface LastDecision {
  track: ReviewTrack;
  status: DeskOutcome;
  /** ms since the epoch when the artist's message leaves; null when nobody is told. */
  notifyAt: number | null;
  /**
   * ms since the epoch until which Z takes the decision back: the hold, with or without a message
   * (issue 31: a shortlist by S is held and undoable too; decision 0275). Null: no undo.
   */
  undoUntil: number | null;
}

/**
 * A 409 (issue 31, decision 0279): another staff member decided the track meanwhile. `theirs` are
 * the pairs as stored now whose revision moved since the desk read them: who, which state, when.
 */
export interface DeskConflict {
  track: ReviewTrack;
  theirs: DeskDecision[];
  /** Every pair of the call as stored now (the row already shows them). */
  current: DeskDecision[];
}

/** The pairs another call changed since the desk read `before` (their revision moved). */
export const changedSince = (before: readonly DeskDecision[], now: readonly DeskDecision[]) =>
  now.filter((d) => before.find((b) => b.direction === d.direction)?.revision !== d.revision);

/** The pairs of `track` the caller decides. */
export const decidable = (track: ReviewTrack | null, canDecide: (d: Direction) => boolean) =>
  (track?.decisions ?? []).filter((d) => canDecide(d.direction as Direction));

/** A track waits for the caller while one of the pairs they decide waits. */
export const waitsFor = (track: ReviewTrack, canDecide: (d: Direction) => boolean) =>
  decidable(track, canDecide).some(pairWaits);

export function useDecisionDesk({ base, tracksKey, player, canDecide }: DeskOptions) {
  const track = player.current;
  const texts = useReviewTexts();
  const pairs = decidable(track, canDecide);
  const [chooser, setChooser] = useState<DeskOutcome | null>(null);
  const [message, setMessage] = useState("");
  const [note, setNote] = useState("");
  const [overrides, setOverrides] = useState<Partial<Record<Direction, DeskOutcome>>>({});
  // Decline reasons (issue 37): toggled after X (or the shortlist's chooser), sent with the decision.
  const [reasons, setReasons] = useState<DeclineReason[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [last, setLast] = useState<LastDecision | null>(null);
  const [conflict, setConflict] = useState<DeskConflict | null>(null);
  const [legend, setLegend] = useState(false);
  /** The phone's sheet (message, note, templates) is open. */
  const [sheet, setSheet] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(0);
  const patch = usePatchDecisions(tracksKey);
  const templates = useQuery(declineTemplatesQuery(base));
  const all: readonly DeskTemplate[] = templates.data ?? [];
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const noteRef = useRef<HTMLTextAreaElement | null>(null);
  /** `last` as set, before React renders it: Z reads this (decision 0465). */
  const lastRef = useRef<LastDecision | null>(null);
  /** The newest decision's call while it is on its way; Z waits for it. */
  const inFlight = useRef<Promise<void> | null>(null);
  const remember = (l: LastDecision | null) => {
    lastRef.current = l;
    setLast(l);
  };

  // Another track: its own message, note and overrides, from the render that shows it. An effect
  // after that render could close a chooser X or A had already opened on the new track (decision 0465).
  const [deskOf, setDeskOf] = useState(track?.id);
  if (deskOf !== track?.id) {
    setDeskOf(track?.id);
    setChooser(null);
    setMessage("");
    setNote("");
    setOverrides({});
    setReasons([]);
  }

  // The hold counts down once a second while it lasts.
  const holding = typeof last?.undoUntil === "number" && last.undoUntil > now;
  useEffect(() => {
    if (typeof last?.undoUntil !== "number") return;
    const tick = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= last.undoUntil!) clearInterval(tick);
    }, 250);
    return () => clearInterval(tick);
  }, [last]);

  const decide = async (status: DeskOutcome, templateId: number | null = null) => {
    const decided = track;
    if (!decided || pairs.length === 0 || player.done) return;
    const before = pairs;
    const body: DeskDecisionBody = {
      status,
      template_id: templateId,
      message: templateId === null ? message.trim() || null : null,
      note: note.trim() || null,
      revisions: Object.fromEntries(before.map((d) => [d.direction, d.revision])),
      ...(status !== "accepted" && reasons.length > 0 ? { reasons } : {}),
      ...(Object.keys(overrides).length > 0
        ? {
          overrides: Object.fromEntries(
            Object.entries(overrides).map(([d, s]) => [d, { status: s, note: note.trim() || null }]),
          ),
        }
        : {}),
    };
    setError(null);
    setConflict(null);
    setChooser(null);
    setSheet(false);
    setReasons([]);
    // The row shows its new state at once and keeps its place; the next track starts meanwhile.
    patch(decided.id, before.map((d) => ({ ...d, status: overrides[d.direction as Direction] ?? status })));
    player.advance(decided.id);
    setSending((n) => n + 1);
    let answered = () => {};
    const mine = new Promise<void>((r) => (answered = r));
    inFlight.current = mine;
    try {
      const answer = await sendDeskDecision(base, decided.id, body);
      patch(decided.id, answer.decisions);
      setNow(Date.now());
      const notifyAt = answer.notify_at ? Date.parse(answer.notify_at) : null;
      // An older server without `undo_until`: the message's hold, as before.
      const until = answer.undo_until !== undefined ? answer.undo_until : answer.notify_at;
      remember({ track: decided, status, notifyAt, undoUntil: until ? Date.parse(until) : null });
    } catch (err) {
      const current = err instanceof ApiError && Array.isArray(err.body?.decisions)
        ? err.body.decisions as DeskDecision[]
        : before;
      patch(decided.id, current);
      const theirs = changedSince(before, current);
      if (err instanceof ApiError && err.status === 409 && theirs.length > 0) {
        // Who decided what and when, with the choice to keep it or decide again (decision 0279).
        setConflict({ track: decided, theirs, current });
      } else {
        setError(`${texts.desk.quoted(decided.filename)}: ${panelErrorText(texts, err, texts.desk.saveFailed)}`);
      }
    } finally {
      setSending((n) => n - 1);
      if (inFlight.current === mine) inFlight.current = null;
      answered();
    }
  };

  /**
   * Z (or a hold line's Undo, naming `which`): takes back the last decision while its hold lasts. Z
   * pressed while the newest decision's call is still on its way is for that decision, once it has
   * answered: the hold line still on screen is the one before it, which Z must not take back
   * (decision 0465).
   */
  const undo = async (which?: LastDecision) => {
    if (!which) {
      while (inFlight.current) await inFlight.current;
    }
    const target = which ?? lastRef.current;
    if (!target || target !== lastRef.current) return;
    if (typeof target.undoUntil !== "number" || target.undoUntil <= Date.now()) return;
    const { track: undone } = target;
    setError(null);
    try {
      const answer = await undoDeskDecision(base, undone.id);
      patch(undone.id, answer.decisions);
      remember(null);
      // Back to the track taken back, with its pairs as they are now: it waits for a decision again.
      const by = new Map(answer.decisions.map((d) => [d.direction, d]));
      player.ready({ ...undone, decisions: (undone.decisions ?? []).map((d) => by.get(d.direction) ?? d) });
    } catch (err) {
      remember(null);
      setError(`${texts.desk.quoted(undone.filename)}: ${panelErrorText(texts, err, texts.desk.undoFailed)}`);
    }
  };

  const shown = chooser ? templatesOf(all, chooser).slice(0, 9) : [];
  const pick = (n: number) => {
    const t = shown[n - 1];
    if (t && chooser) void decide(chooser, t.id);
  };

  return {
    track,
    pairs,
    /** The outcomes are live: a track with pairs of the caller's, and the view not done (0276). */
    ready: Boolean(track) && pairs.length > 0 && !player.done,
    /** The view is done: the dock says so and offers the next views (decision 0276). */
    done: player.done,
    conflict,
    /** 409: their decision stays (the row already shows it). */
    keepTheirs: () => setConflict(null),
    /** 409: back to the track with its pairs as stored now, to decide it again. */
    decideAgain: () => {
      if (!conflict) return;
      const by = new Map(conflict.current.map((d) => [d.direction, d]));
      const { track: again } = conflict;
      setConflict(null);
      player.ready({ ...again, decisions: (again.decisions ?? []).map((d) => by.get(d.direction) ?? d) });
    },
    chooser,
    /**
     * A or X: the chooser of that outcome's templates opens; S sends at once, with the typed message
     * if any (decision 0226), and is held like the others: Z takes it back (decision 0275); the
     * shortlist's chooser opens from its own button.
     */
    choose: (status: DeskOutcome, withTemplates = false) => {
      if (!track || pairs.length === 0 || player.done) return;
      if (status === "shortlisted" && !withTemplates) return void decide(status);
      setChooser(status);
      setSheet(true);
    },
    close: () => {
      setChooser(null);
      setLegend(false);
      setSheet(false);
    },
    templates: shown,
    pick,
    /** The decline reasons chosen (issue 37) and their toggle (Shift+1–9 in the chooser). */
    reasons,
    toggleReason: (r: DeclineReason) =>
      setReasons((now) =>
        now.includes(r) ? now.filter((x) => x !== r) : DECLINE_REASONS.filter((x) => x === r || now.includes(x))
      ),
    /** Enter: the chosen outcome without a ready-made message (with the typed one, if any). */
    send: () => chooser && void decide(chooser),
    message,
    setMessage,
    note,
    setNote,
    overrides,
    setOverride: (d: Direction, s: DeskOutcome | "") =>
      setOverrides((o) => {
        const next = { ...o };
        if (s) next[d] = s;
        else delete next[d];
        return next;
      }),
    messageRef,
    noteRef,
    focusMessage: () => {
      setSheet(true);
      requestAnimationFrame(() => messageRef.current?.focus());
    },
    focusNote: () => {
      setSheet(true);
      requestAnimationFrame(() => noteRef.current?.focus());
    },
    error,
    sending: sending > 0,
    last,
    holding,
    /** Whole seconds left of the hold. */
    holdLeft: holding ? Math.ceil((last!.undoUntil! - now) / 1000) : 0,
    undo,
    legend,
    toggleLegend: () => setLegend((l) => !l),
    sheet,
    setSheet,
  };
}

export type DecisionDesk = ReturnType<typeof useDecisionDesk>;
