import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { client, read } from "../../lib/api.ts";
import { adminKeys } from "../../lib/staff-queries.ts";

/**
 * The admin's status-store page (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

export type RedisData = InferResponseType<typeof admin["redis-data"]["$get"]>;
/** One list's place on the status-store page: the server pages each list on its own. */
export type RedisListPage = RedisData["paging"]["trackIds"];

export interface RedisPageParams {
  page_size: number;
  track_ids_page: number;
  track_status_page: number;
  errors_page: number;
}

export const adminRedisQuery = (p: RedisPageParams) =>
  queryOptions({
    queryKey: [...adminKeys.redis, p] as const,
    queryFn: ({ signal }) =>
      read(admin["redis-data"].$get({
        query: {
          page_size: String(p.page_size),
          track_ids_page: String(p.track_ids_page),
          track_status_page: String(p.track_status_page),
          errors_page: String(p.errors_page),
        },
      }, { init: { signal } })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useDeleteRedisKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      // Keys are `family:id`; encoded as one path segment whatever they hold.
      read(admin["redis-key"][":key"].$delete({ param: { key: encodeURIComponent(key) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.redis }),
  });
}

export function useCleanupRedis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyType: InferRequestType<typeof admin["cleanup-redis"]["$post"]>["json"]["key_type"]) =>
      read(admin["cleanup-redis"].$post({ json: { key_type: keyType } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.redis }),
  });
}
