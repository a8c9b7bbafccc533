import { useQueries } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import type { Direction } from "../../../../domain/directions.ts";
import type { ReviewStatus } from "../../../../domain/review.ts";
import { read } from "../../../lib/api.ts";
import { panel, type StaffBase } from "../../../lib/staff-queries.ts";
import { parseTrackListSearch, type TrackListSearch } from "../queue/track-list-search.ts";
import { deskMoment, type PlayerTexts } from "../texts/player-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { DecisionDesk } from "./use-decision-desk.ts";

/**
 * The desk's ends and slips in the dock (issue 31): the view done with the views that still wait
 * (decision 0276), the 409 that names the other decision with «keep theirs» and «decide again»
 * (decision 0279), and the hold of a decision nobody is told of (a shortlist by S; decision 0275).
 */

export interface DeskEndsContext {
  texts: PlayerTexts;
  base: StaffBase;
  tracksKey: readonly string[];
  /** The directions the caller decides, in the panel's order. */
  directions: readonly Direction[];
  label: (d: Direction) => string;
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** A view the dock may offer once the current one is done. */
interface NextView {
  key: string;
  search: TrackListSearch;
  /** The list's `awaiting` count of it. */
  counted: TrackListSearch;
  name: (n: number) => string;
}

/** Whether `a` is the view `b` (the same filters that make a queue). */
const sameView = (a: TrackListSearch, b: TrackListSearch) =>
  (a.direction ?? "") === (b.direction ?? "") && (a.review ?? "") === (b.review ?? "") &&
  (a.assigned ?? "") === (b.assigned ?? "");

/** The views offered after the last undecided track: «Новые» of each direction, «Мне назначено». */
function candidates(here: TrackListSearch, ctx: DeskEndsContext): NextView[] {
  const views: NextView[] = ctx.directions.map((d) => ({
    key: `new:${d}`,
    search: { direction: d, review: "new", sort: "upload_date" },
    counted: { direction: d, review: "new" },
    name: (n) => ctx.texts.desk.newOf(ctx.label(d), n),
  }));
  views.push({
    key: "assigned",
    search: { assigned: "me", review: "awaiting", sort: "upload_date" },
    counted: { assigned: "me", review: "awaiting" },
    name: (n) => ctx.texts.desk.assignedToMe(n),
  });
  return views.filter((v) => !sameView(v.search, here));
}

/** The dock's line once the view is done: what happened, and where the work goes on. */
export function QueueDone({ desk, ctx, skipped, onSkipped }: {
  desk: DecisionDesk;
  ctx: DeskEndsContext;
  skipped: number;
  onSkipped: () => void;
}) {
  const here = parseTrackListSearch(useSearch({ strict: false }));
  const views = candidates(here, ctx);
  const counts = useQueries({
    queries: views.map((v) => ({
      queryKey: [...ctx.tracksKey, "next-view", v.key] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        read(
          panel(ctx.base).tracks.$get({
            query: {
              ...(v.counted.direction ? { direction: v.counted.direction } : {}),
              ...(v.counted.assigned ? { assigned: v.counted.assigned } : {}),
              review: v.counted.review!,
              page: "1",
              page_size: "10",
            },
          }, { init: { signal } }),
        ).then((b) => b.filtered),
      staleTime: 0,
      retry: false,
      enabled: desk.done,
    })),
  });
  if (!desk.done) return null;
  const open = views.map((v, i) => ({ v, n: counts[i].data ?? 0 })).filter((x) => x.n > 0);
  const settled = counts.every((c) => !c.isPending);
  return (
    <div className="st-alert dk-done" role="status" data-testid="queue-done">
      <p>{ctx.texts.desk.queueDone}</p>
      {(open.length > 0 || skipped > 0) && (
        <p className="dk-next-views">
          {open.length > 0 && <span>{ctx.texts.desk.nextViews}</span>}
          {open.map(({ v, n }) => (
            <Link
              key={v.key}
              to={`${ctx.base}/tracks` as "/"}
              search={v.search as never}
              className="st-btn st-btn-sm"
              data-testid="next-view"
            >
              {v.name(n)}
            </Link>
          ))}
          {skipped > 0 && (
            <button type="button" className="st-btn st-btn-sm" onClick={onSkipped}>
              {ctx.texts.desk.backToSkipped(skipped)}
            </button>
          )}
        </p>
      )}
      {settled && open.length === 0 && skipped === 0 && (
        <p className="st-muted st-small">{ctx.texts.desk.nothingElse}</p>
      )}
    </div>
  );
}

/** 409: who decided the track meanwhile, what and when; keep theirs, or decide it again. */
export function DeskConflictNotice({ desk, ctx }: { desk: DecisionDesk; ctx: DeskEndsContext }) {
  const states = useReviewTexts().states;
  const c = desk.conflict;
  if (!c) return null;
  const t = ctx.texts.desk;
  return (
    <div className="st-alert st-alert-error dk-error" role="alert" data-testid="desk-conflict">
      <p>{t.conflict(c.track.filename)}</p>
      <ul>
        {c.theirs.map((d) => (
          <li key={d.direction}>
            {t.conflictPair(
              d.decided_by ? `@${d.decided_by.username}` : t.someone,
              states[d.status as ReviewStatus] ?? d.status,
              ctx.label(d.direction as Direction),
              deskMoment(ctx.texts, d.decided_at),
            )}
          </li>
        ))}
      </ul>
      <p>
        <button type="button" className="st-btn st-btn-sm" onClick={desk.keepTheirs}>{t.keepTheirs}</button>{" "}
        <button type="button" className="st-btn st-btn-sm" onClick={desk.decideAgain}>{t.decideAgain}</button>
      </p>
    </div>
  );
}

/** The hold of a decision that tells nobody (a shortlist by S): Z takes it back while it lasts. */
export function SilentHold({ desk, ctx }: { desk: DecisionDesk; ctx: DeskEndsContext }) {
  const states = useReviewTexts().states;
  if (!desk.holding || !desk.last || desk.last.notifyAt !== null) return null;
  const t = ctx.texts.desk;
  return (
    <span className="dk-hold" data-testid="decision-hold">
      {t.undoWithin(
        desk.last.track.filename,
        (states[desk.last.status as ReviewStatus] ?? desk.last.status).toLowerCase(),
      )} <strong>{clock(desk.holdLeft)}</strong>
      <button
        type="button"
        className="st-btn st-btn-sm"
        aria-keyshortcuts="Z"
        onClick={() => void desk.undo(desk.last!)}
      >
        {t.undo} <kbd aria-hidden="true">Z</kbd>
      </button>
    </span>
  );
}
