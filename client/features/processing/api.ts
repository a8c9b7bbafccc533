import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** The ids of the user's last batch (GET /api/track_ids). Never cached: each visit asks afresh. */
export const trackIdsQuery = queryOptions({
  queryKey: ["track_ids"],
  queryFn: async () => {
    const body = await api<{ track_ids?: unknown }>("/track_ids");
    return Array.isArray(body.track_ids) ? body.track_ids.filter((x): x is number => typeof x === "number") : [];
  },
  staleTime: 0,
  gcTime: 0,
  retry: false,
});

export const fetchTrackStatus = (id: number) => api<unknown>(`/status/${id}`);
