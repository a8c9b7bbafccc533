import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { VOTE_EMOJI, VOTE_VALUES, VOTE_WORD_MAX_LENGTH } from "../../../../domain/votes.ts";
import { panelErrorText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { useAuth } from "../../../lib/auth.ts";
import { type StaffBase, staffTrackQuery } from "../../../lib/staff-queries.ts";
import { useVote, type VoteChoice } from "./vote-queries.ts";
import "./track-votes.css";

/**
 * The caller's vote on a track, per direction in their scope (issue 24, decision 0229): 👍 🤔 👎
 * with an optional word, in the desk's dock and on the edit page. The others' votes stay hidden
 * (only their number shows) until the caller votes; then they are listed with names. Buttons only:
 * the desk's keys are not extended (decision 0229). Reads the track itself, so a vote shows at once
 * wherever the track is shown.
 */
export function TrackVotes(
  { base, tracksKey, trackId, label }: {
    base: StaffBase;
    tracksKey: readonly string[];
    trackId: number;
    label: (d: Direction) => string;
  },
) {
  const id = useId();
  const panel = useReviewTexts();
  const t = panel.votes;
  const query = useQuery(staffTrackQuery(base, tracksKey)(trackId));
  const me = useAuth().user?.id;
  const mutation = useVote(base, tracksKey);
  const [words, setWords] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setWords({});
    setError(null);
  }, [trackId]);
  const track = query.data;
  if (!track?.vote_summary?.length) return null;
  const many = track.vote_summary.length > 1;

  const cast = (direction: Direction, vote: VoteChoice | null, word: string) => {
    setError(null);
    mutation.mutate(
      { id: track.id, direction, vote, word: word.trim() === "" ? null : word.trim() },
      { onError: (err) => setError(panelErrorText(panel, err, t.failed)) },
    );
  };

  return (
    <section className="tv-votes" aria-label={t.region} data-testid="track-votes">
      {track.vote_summary.map((s) => {
        const direction = s.direction as Direction;
        const pairVotes = (track.votes ?? []).filter((v) => v.direction === s.direction);
        const mine = pairVotes.find((v) => v.user_id === me);
        const word = words[s.direction] ?? (s.my_vote !== null ? mine?.word ?? "" : "");
        const wordId = `${id}-${s.direction}-word`;
        return (
          <div key={s.direction} className="tv-pair" data-direction={s.direction}>
            <div className="tv-row" role="group" aria-label={`${t.yours}${many ? `: ${label(direction)}` : ""}`}>
              <span className="tv-caption" aria-hidden="true">{t.yours}</span>
              {many && <span className="tv-direction">{label(direction)}</span>}
              {VOTE_VALUES.map((v) => (
                <button
                  key={v}
                  type="button"
                  className="st-btn st-btn-sm tv-vote"
                  aria-pressed={s.my_vote === v}
                  aria-label={t.labels[v]}
                  title={t.labels[v]}
                  disabled={mutation.isPending}
                  onClick={() => cast(direction, v, word)}
                >
                  <span aria-hidden="true">{VOTE_EMOJI[v]}</span>
                </button>
              ))}
              <label className="visually-hidden" htmlFor={wordId}>{t.wordLabel}</label>
              <input
                id={wordId}
                className="st-input tv-word"
                placeholder={t.wordPlaceholder}
                maxLength={VOTE_WORD_MAX_LENGTH}
                value={word}
                onChange={(e) => setWords((w) => ({ ...w, [s.direction]: e.target.value }))}
                onKeyDown={(e) => {
                  // Enter re-sends the vote with the word; Esc gives the keys back to the desk (0226).
                  if (e.key === "Enter" && s.my_vote !== null) {
                    e.preventDefault();
                    cast(direction, s.my_vote as VoteChoice, word);
                  }
                  if (e.key === "Escape") {
                    e.preventDefault();
                    e.currentTarget.blur();
                  }
                }}
              />
              {s.my_vote !== null && (
                <button
                  type="button"
                  className="st-btn st-btn-sm tv-withdraw"
                  disabled={mutation.isPending}
                  onClick={() => cast(direction, null, "")}
                >
                  {t.withdraw}
                </button>
              )}
            </div>
            {pairVotes.length > 0
              ? (
                <ul className="tv-list" aria-label={`${t.list}${many ? `: ${label(direction)}` : ""}`}>
                  {pairVotes.map((v) => (
                    <li key={v.user_id} className="tv-item">
                      <span aria-hidden="true">{VOTE_EMOJI[v.vote as VoteChoice]}</span>
                      <span className="visually-hidden">{t.labels[v.vote as VoteChoice]}:</span>
                      <strong data-user-content="">{v.name}</strong>
                      {v.word && <span className="tv-item-word" data-user-content="">— {v.word}</span>}
                    </li>
                  ))}
                </ul>
              )
              : (
                <p className="st-muted st-small tv-hidden">
                  {s.count === 0 ? t.nobody : t.hidden(s.count)}
                </p>
              )}
          </div>
        );
      })}
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
    </section>
  );
}
