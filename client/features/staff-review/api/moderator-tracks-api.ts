import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { client, read } from "../../../lib/api.ts";
import { auth } from "../../../lib/auth.ts";
import { moderatorKeys, staffTrackQuery, tzOffset } from "../../../lib/staff-queries.ts";
import type { TrackFilterValues } from "../queue/track-filters.tsx";

/**
 * The moderator's track list and track form (docs/CONVENTIONS.md rule 8). Calls go to /api/moderator,
 * typed by the server's routes.
 */

export const MODERATOR_PAGE_SIZE = 10;

export interface TrackListParams extends TrackFilterValues {
  page: number;
  /** `field` or `-field` (track-list-search.ts); the server's default when absent. */
  sort?: string;
}

function listQuery(p: TrackListParams) {
  return {
    filename: p.filename.trim(),
    user: p.user.trim(),
    date: p.date,
    direction: p.direction,
    downloaded: p.downloaded,
    warning: p.warning,
    review: p.review,
    assigned: p.assigned,
    votes: p.votes,
    ai_use: p.ai_use,
    sort: p.sort,
    // The server reads a bare `upload_date` as newest first; ascending needs the order said (0163).
    order: p.sort === "upload_date" ? "asc" as const : undefined,
    page: String(p.page),
    page_size: String(MODERATOR_PAGE_SIZE),
    tz_offset: String(tzOffset()),
  };
}

/**
 * The moderator's tracks. Spec 2 §4: when the moderator call fails and the user is an admin, the
 * admin tracks call answers instead (an admin sees every track either way).
 */
export const moderatorTracksQuery = (p: TrackListParams) =>
  queryOptions({
    queryKey: [...moderatorKeys.tracks, "list", p] as const,
    queryFn: async ({ signal }) => {
      const query = listQuery(p);
      try {
        return await read(client.moderator.tracks.$get({ query }, { init: { signal } }));
      } catch (err) {
        if (!auth.isAdmin || (err instanceof DOMException && err.name === "AbortError")) throw err;
        try {
          return await read(client.admin.tracks.$get({ query }, { init: { signal } }));
        } catch {
          throw err;
        }
      }
    },
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

export const moderatorTrackQuery = staffTrackQuery("/moderator", moderatorKeys.tracks, { retryOne: false });

/** What a moderator may change on a track. */
export type TrackModeration = InferRequestType<typeof client.moderator.tracks[":id"]["$put"]>["json"];

/**
 * Saves a track's directions and downloaded flag. The (inactive) list is refetched before the call
 * resolves, so going back never shows the old directions; the dashboard follows in the background.
 */
export function useModerateTrack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TrackModeration }) =>
      read(client.moderator.tracks[":id"].$put({ param: { id: String(id) }, json: body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: moderatorKeys.tracks, refetchType: "all" });
      void queryClient.invalidateQueries({ queryKey: moderatorKeys.dashboard });
    },
  });
}
