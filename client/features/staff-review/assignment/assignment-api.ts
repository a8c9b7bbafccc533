import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { type client, read } from "../../../lib/api.ts";
import { panel, type StaffBase, type StaffTrack, type TrackList } from "../../../lib/staff-queries.ts";

/**
 * Assignment and presence (issue 24, docs/decisions/0233, 0234): the calls under `${base}/tracks`
 * and the cache edits that keep the queue in place. An assignment of one track is written into the
 * cached rows (the list is not read again, decision 0225); a selection or a split reads the lists
 * again, as a download of a selection does.
 */

export type Assignee = StaffTrack["assignee"];
export type AssignableStaff = InferResponseType<
  typeof client.admin.tracks["assignable-staff"]["$get"]
>["staff"][number];
export type Presence = InferResponseType<typeof client.admin.tracks.presence.$get>["presence"][number];
export type SplitAnswer = InferResponseType<typeof client.admin.tracks["assign-split"]["$post"]>;

/** How often the queue asks who is listening (the window is 30 s, decision 0234). */
export const PRESENCE_POLL_MS = 10_000;

/** The colleagues one may assign work to, each with the caller's directions they cover. */
export const assignableStaffQuery = (base: StaffBase, tracksKey: readonly string[]) =>
  queryOptions({
    queryKey: [...tracksKey, "assignable-staff"] as const,
    queryFn: () => read(panel(base).tracks["assignable-staff"].$get({ query: {} })).then((b) => b.staff),
    staleTime: 60_000,
  });

export const assignTrack = (base: StaffBase, id: number, userId: number | null) =>
  read(panel(base).tracks[":id"].assignee.$put({ param: { id: String(id) }, json: { user_id: userId } }));

export const assignTracks = (base: StaffBase, ids: readonly number[], userId: number | null) =>
  read(panel(base).tracks.assignee.$put({ json: { track_ids: [...ids], user_id: userId } }));

export const splitQueue = (base: StaffBase, direction: string, userIds: readonly number[]) =>
  read(panel(base).tracks["assign-split"].$post({ json: { direction, user_ids: [...userIds] } }));

/** Puts an assignee into the cached rows and the track's own entry, without reading the list again. */
export function usePatchAssignee(tracksKey: readonly string[]) {
  const queryClient = useQueryClient();
  return (ids: readonly number[], assignee: Assignee) => {
    const set = new Set(ids);
    queryClient.setQueriesData<TrackList>(
      { queryKey: [...tracksKey, "list"] },
      (old) => old && { ...old, tracks: old.tracks.map((t) => (set.has(t.id) ? { ...t, assignee } : t)) },
    );
    for (const id of ids) {
      queryClient.setQueryData<StaffTrack>([...tracksKey, "one", id], (old) => old && { ...old, assignee });
    }
  };
}

/**
 * Who else is listening to the rows shown, asked every PRESENCE_POLL_MS while the page is open
 * (the list itself is not read again). Keyed by track id; the caller's own listening is never in it.
 */
export function usePresence(base: StaffBase, tracksKey: readonly string[], ids: readonly number[]) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const query = useQuery<Presence[]>({
    queryKey: [...tracksKey, "presence", sorted.join(",")],
    queryFn: ({ signal }) =>
      read(panel(base).tracks.presence.$get({ query: { ids: sorted.join(",") } }, { init: { signal } }))
        .then((b) => b.presence),
    enabled: sorted.length > 0,
    refetchInterval: PRESENCE_POLL_MS,
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: false,
  });
  const byTrack = new Map<number, Presence[]>();
  for (const p of query.data ?? []) byTrack.set(p.track_id, [...(byTrack.get(p.track_id) ?? []), p]);
  return byTrack;
}
