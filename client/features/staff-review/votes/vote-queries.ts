import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Direction } from "../../../../domain/directions.ts";
import { read } from "../../../lib/api.ts";
import { panel, type StaffBase, type StaffTrack, type TrackList } from "../../../lib/staff-queries.ts";

/**
 * Staff votes (issue 24, decision 0229): PUT and DELETE `${base}/tracks/:id/votes/:direction`, and
 * the cache edits that show the answer at once: the pair's votes and summary are replaced in the
 * track's own entry and in every cached list row, so the queue's score and the dock agree without
 * reading the list again (the row keeps its place, as after a decision, decision 0225).
 */

export type TrackVote = StaffTrack["votes"][number];
export type VoteSummary = StaffTrack["vote_summary"][number];
export type VoteChoice = 1 | 0 | -1;

export interface VoteAnswer {
  votes: TrackVote[];
  vote_summary: VoteSummary;
}

export const sendVote = (
  base: StaffBase,
  id: number,
  direction: Direction,
  body: { vote: VoteChoice; word: string | null },
): Promise<VoteAnswer> =>
  read(panel(base).tracks[":id"].votes[":direction"].$put({ param: { id: String(id), direction }, json: body }));

export const withdrawVote = (base: StaffBase, id: number, direction: Direction): Promise<VoteAnswer> =>
  read(panel(base).tracks[":id"].votes[":direction"].$delete({ param: { id: String(id), direction } }));

type WithVotes = { id: number; votes: TrackVote[]; vote_summary: VoteSummary[] };

/** The track with one pair's votes and summary replaced by the answer. */
export function withPairVotes<T extends WithVotes>(track: T, direction: string, answer: VoteAnswer): T {
  return {
    ...track,
    votes: [...(track.votes ?? []).filter((v) => v.direction !== direction), ...answer.votes],
    vote_summary: (track.vote_summary ?? []).map((s) => (s.direction === direction ? answer.vote_summary : s)),
  };
}

/** Casts (a choice) or withdraws (null) the caller's vote on a pair, then patches the caches. */
export function useVote(base: StaffBase, tracksKey: readonly string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction, vote, word }: {
      id: number;
      direction: Direction;
      vote: VoteChoice | null;
      word: string | null;
    }) => (vote === null ? withdrawVote(base, id, direction) : sendVote(base, id, direction, { vote, word })),
    onSuccess: (answer, { id, direction }) => {
      queryClient.setQueryData<StaffTrack>(
        [...tracksKey, "one", id],
        (old) => old && withPairVotes(old, direction, answer),
      );
      queryClient.setQueriesData<TrackList>({ queryKey: [...tracksKey, "list"] }, (old) =>
        old && {
          ...old,
          tracks: old.tracks.map((t) => (t.id === id ? withPairVotes(t, direction, answer) : t)),
        });
    },
  });
}
