import { queryOptions } from "@tanstack/react-query";
import { read } from "../../../lib/api.ts";
import { panel, type StaffBase } from "../../../lib/staff-queries.ts";
import type { ReviewTrack } from "./figures.ts";

/**
 * What the queue and the player both need to know of a track's sound: whether it has any, the mark
 * of a row's play button, and the listening link the player streams (GET {base}/tracks/:id/listen).
 * Apart from the player's hook, so the queue's rows do not carry it.
 */

export type ListenAnswer = {
  stream_url: string;
  peaks: ReadonlyArray<readonly [number, number]> | null;
  duration_s: number | null;
};

/** Listening links live 30 minutes on the server; one younger than 20 is used again. */
const LISTEN_FRESH_MS = 20 * 60_000;

export const listenQuery = (base: StaffBase, tracksKey: readonly string[], id: number) =>
  queryOptions({
    queryKey: [...tracksKey, "listen", id] as const,
    queryFn: async (): Promise<ListenAnswer> => {
      const body = await read(panel(base).tracks[":id"].listen.$get({ param: { id: String(id) } }));
      return { stream_url: body.stream_url, peaks: body.peaks as ListenAnswer["peaks"], duration_s: body.duration_s };
    },
    staleTime: LISTEN_FRESH_MS,
    gcTime: LISTEN_FRESH_MS,
    retry: false,
  });

/** Failed tracks and tracks without a stored file have nothing to play or download (issue 12 §3). */
export const hasAudio = (track: ReviewTrack) => track.status !== "failed" && track.has_file !== false;

/** A row's play button: J/K move the focus along when it is on one. */
export const PLAY_BUTTON_ATTR = "data-review-play";
