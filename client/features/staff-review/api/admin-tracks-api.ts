import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { client, read } from "../../../lib/api.ts";
import { adminKeys, staffTrackQuery, tzOffset } from "../../../lib/staff-queries.ts";
import type { TrackFilterValues } from "../queue/track-filters.tsx";

/**
 * The admin's track list and track form (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

export interface TrackListParams extends TrackFilterValues {
  page: number;
  page_size: number;
  /** `field` or `-field` (track-list-search.ts); the server's default when absent. */
  sort?: string;
}

export const adminTracksQuery = (p: TrackListParams) =>
  queryOptions({
    queryKey: [...adminKeys.tracks, "list", p] as const,
    queryFn: ({ signal }) =>
      read(admin.tracks.$get({
        query: {
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
          page_size: String(p.page_size),
          tz_offset: String(tzOffset()),
        },
      }, { init: { signal } })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminTrackQuery = staffTrackQuery("/admin", adminKeys.tracks);

/** What the track form sends (create and update take the same fields). */
export type TrackInput = InferRequestType<typeof admin.tracks.$post>["json"];

/**
 * Creates (`id` null) or updates a track. An update puts the answer in the track's cache; either
 * way the lists are refetched (inactive ones too, for the way back) and the dashboard in the background.
 */
export function useSaveAdminTrack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TrackInput }) =>
      id === null
        ? read(admin.tracks.$post({ json: body }))
        : read(admin.tracks[":id"].$put({ param: { id: String(id) }, json: body })),
    onSuccess: async (answer, { id }) => {
      if (id !== null && answer.track) queryClient.setQueryData([...adminKeys.tracks, "one", id], answer.track);
      await queryClient.invalidateQueries({ queryKey: [...adminKeys.tracks, "list"], refetchType: "all" });
      void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard });
    },
  });
}
