import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, client, read } from "./api.ts";
import { useAuth } from "./auth.ts";
import { type ModeratorStatus, normalizeCategories, statusFromUser } from "./moderator-categories.ts";
import { moderatorKeys } from "./staff-queries.ts";

/** A 403 means "not a moderator": asking again cannot change that. */
const retryUnless403 = (count: number, err: unknown) => !(err instanceof ApiError && err.status === 403) && count < 1;

export const moderatorStatusQuery = () =>
  queryOptions({
    queryKey: moderatorKeys.status,
    queryFn: async (): Promise<ModeratorStatus> => {
      const body = await read(client.moderator.status.$get());
      return {
        is_moderator: Boolean(body.status?.is_moderator),
        categories: normalizeCategories(body.status?.categories),
      };
    },
    retry: retryUnless403,
    staleTime: 30_000,
  });

/**
 * The moderator's status for the layout and every page. The pages share one cached query, so the
 * status is asked again only when it is not loaded yet (spec 2 "Moderator layout"). A 403 means
 * "not a moderator"; any other failure falls back to the signed-in user's own flags (spec 2 §8).
 */
export function useModeratorStatus() {
  const { user } = useAuth();
  const query = useQuery(moderatorStatusQuery());
  const forbidden = query.error instanceof ApiError && query.error.status === 403;
  const failed = query.isError && !forbidden;
  const status: ModeratorStatus | null = query.data ?? (failed ? statusFromUser(user) : null);
  return {
    status,
    categories: status?.categories ?? null,
    loading: query.isPending,
    failed,
    forbidden,
    username: user?.username ?? "",
  };
}
