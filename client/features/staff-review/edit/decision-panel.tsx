import { useId } from "react";
import { type Direction, parseDirections } from "../../../../domain/directions.ts";
import { ListeningList } from "./listening-list.tsx";
import { DuplicateNote, SameAudioNote, SimilarVersionNote } from "./duplicate-note.tsx";
import { AiUseBadge } from "../queue/ai-use-badge.tsx";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import "./decision-panel.css";
import { DirectionDecision } from "./direction-decision.tsx";
import { DecisionHistory } from "./decision-history.tsx";
import type { StaffBase, StaffTrack } from "../../../lib/staff-queries.ts";

/**
 * The review of one track on the staff track page (issue 13, decision 0160): per direction its
 * state, a decision form (status, staff note, message to the artist) and the one-step decline with
 * a ready-made message; below, who of the staff listened how long (issue 20) and the track's
 * decision history. Words from the panel's dictionary (review-texts.ts).
 */

type Decision = StaffTrack["decisions"][number];

export interface DecisionPanelProps {
  base: StaffBase;
  /** The panel's track query key prefix, refreshed after a decision. */
  tracksKey: readonly string[];
  track: StaffTrack;
  label: (d: Direction) => string;
  /** False for a direction outside the moderator's categories: its state is shown, not editable. */
  canDecide: (d: Direction) => boolean;
}

export function DecisionPanel({ base, tracksKey, track, label, canDecide }: DecisionPanelProps) {
  const headingId = useId();
  const t = useReviewTexts().decisions;
  const directions = parseDirections(track.directions);
  const byDirection = new Map<string, Decision>((track.decisions ?? []).map((d) => [d.direction, d]));
  return (
    <section className="st-section dp-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="dp-title">{t.title}</h2>
      <DuplicateNote of={track.duplicate_of} />
      <SameAudioNote of={track.same_audio_as} />
      <SimilarVersionNote of={track.similar_to_track_id} />
      <p className="dp-ai-use">
        <AiUseBadge value={track.ai_use} detail />
      </p>
      <div className="dp-list">
        {directions.map((d) => (
          <DirectionDecision
            key={d}
            base={base}
            tracksKey={tracksKey}
            trackId={track.id}
            direction={d}
            label={label(d)}
            decision={byDirection.get(d)}
            editable={canDecide(d)}
          />
        ))}
      </div>
      <ListeningList
        listens={track.listens}
        durationS={track.analysis?.duration_s ?? (track.duration ? track.duration / 1000 : null)}
      />
      <DecisionHistory entries={track.decision_history ?? []} label={label} />
    </section>
  );
}
