import { useQuery } from "@tanstack/react-query";
import { ApiError } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth.ts";
import { moderatorStatusQuery } from "./api.ts";
import { type ModeratorStatus, statusFromUser } from "./categories.ts";

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
