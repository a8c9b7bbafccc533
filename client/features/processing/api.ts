import { queryOptions } from "@tanstack/react-query";
import { client, read } from "../../lib/api.ts";

/** The ids of the user's last batch (GET /api/track_ids). Never cached: each visit asks afresh. */
export const trackIdsQuery = queryOptions({
  queryKey: ["track_ids"],
  queryFn: async () => {
    const body = await read(client.track_ids.$get());
    const ids: unknown[] = Array.isArray(body.track_ids) ? body.track_ids : [];
    return ids.filter((x): x is number => typeof x === "number");
  },
  staleTime: 0,
  gcTime: 0,
  retry: false,
});

/** GET /api/status/{id}: polled every few seconds while a track is being processed. */
export const fetchTrackStatus = (id: number) => read(client.status[":id"].$get({ param: { id: String(id) } }));
