import type { Direction } from "../../../../domain/directions.ts";
import type { StaffBase, StaffTrackRow } from "../../../lib/staff-queries.ts";
import { DeskAssignment, type QueueAssignment } from "../assignment/queue-assignment.tsx";
import { DecisionDock } from "./decision-dock.tsx";
import { FromDropSwitch, PlayerBar } from "../player/player-bar.tsx";
import { CommentsPanel } from "../comments/comments-panel.tsx";
import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";
import type { useTrackReview } from "./use-track-review.ts";
import { TrackVotes } from "../votes/track-votes.tsx";
import { previousMarkers, VersionBar } from "../player/version-ab.tsx";
import { useFeedbackDeskTexts } from "../texts/feedback-texts.ts";

/**
 * The track lists' player bar with the review desk's dock: the decision dock with the votes of the
 * track playing, and its assignment (issues 23 and 24). The same for both panels; they differ in
 * their base, query keys, texts and direction labels.
 */
export function ReviewPlayerBar({ review, work, rows, base, tracksKey, label, texts }: {
  review: ReturnType<typeof useTrackReview>;
  work: QueueAssignment;
  rows: readonly StaffTrackRow[];
  base: StaffBase;
  tracksKey: readonly string[];
  label: (d: Direction) => string;
  texts: PlayerTexts;
}) {
  const current = review.player.current;
  const phone = useMediaQuery(PHONE_QUERY);
  const feedbackTexts = useFeedbackDeskTexts();
  if (rows.length === 0 && !current) return null;
  const assignment = (
    <DeskAssignment
      work={work}
      // A track opened by link (not on the page shown) has its own marks too (issue 31).
      track={rows.find((t) => t.id === current?.id) ?? (current as StaffTrackRow | null)}
    />
  );
  return (
    <PlayerBar
      player={review.player}
      texts={texts}
      comments={review.comments}
      fromDrop={review.fromDrop}
      versionBar={<VersionBar ab={review.versions} />}
      extraMarkers={review.versions.previous ? previousMarkers(review.versions.previous.comments, feedbackTexts) : []}
      dock={
        <>
          <DecisionDock
            desk={review.desk}
            label={label}
            ends={{
              texts,
              base,
              tracksKey,
              directions: [...work.mine] as Direction[],
              label,
              skipped: review.player.skippedCount,
              onSkipped: review.player.backToSkipped,
            }}
            votes={current && <TrackVotes base={base} tracksKey={tracksKey} trackId={current.id} label={label} />}
            // A phone's bar keeps play, seeking, the drop, previous/next and the outcomes (issue 31);
            // the rest is in the sheet.
            sheetExtra={phone && (
              <>
                {review.comments && <CommentsPanel state={review.comments.state} texts={review.comments.texts} />}
                {review.fromDrop && <FromDropSwitch fromDrop={review.fromDrop} texts={texts} />}
                {assignment}
              </>
            )}
          />
          {!phone && assignment}
        </>
      }
    />
  );
}
