import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import {
  staffFaqQueries,
  staffTrackQuery,
  tzOffset,
  useStaffFaqWrites,
} from "../../components/staff/staff-queries.ts";
import type { TrackFilterValues } from "../../components/staff/track-filters.tsx";
import { ApiError, client, read } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { type ModeratorStatus, normalizeCategories } from "./categories.ts";

/**
 * Query-option factories and write hooks of the moderator panel (CONVENTIONS rule 8). Calls go to
 * /api/moderator, typed by the server's routes.
 */

export const MODERATOR_PAGE_SIZE = 10;

export interface TrackListParams extends TrackFilterValues {
  page: number;
  /** `field` or `-field` (track-list-search.ts); the server's default when absent. */
  sort?: string;
}

export type { Faq, TrackList } from "../../components/staff/staff-queries.ts";

export const moderatorKeys = {
  status: ["moderator", "status"] as const,
  tracks: ["moderator", "tracks"] as const,
  faq: ["moderator", "faq"] as const,
  dashboard: ["moderator", "dashboard"] as const,
};

/** A 403 means "not a moderator": asking again cannot change that. */
const retryUnless403 = (count: number, err: unknown) => !(err instanceof ApiError && err.status === 403) && count < 1;

export const moderatorStatusQuery = () =>
  queryOptions({
    queryKey: moderatorKeys.status,
    queryFn: async (): Promise<ModeratorStatus> => {
      const body = await read(client.moderator.status.$get());
      return { is_moderator: Boolean(body.status?.is_moderator), categories: normalizeCategories(body.status?.categories) };
    },
    retry: retryUnless403,
    staleTime: 30_000,
  });

function listQuery(p: TrackListParams) {
  return {
    filename: p.filename.trim(),
    user: p.user.trim(),
    date: p.date,
    direction: p.direction,
    downloaded: p.downloaded,
    warning: p.warning,
    review: p.review,
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

/** Dashboard counts from one list call: `total` = tracks in the categories, `filtered` = downloaded. */
export const moderatorCountsQuery = () =>
  queryOptions({
    queryKey: [...moderatorKeys.dashboard, "counts"] as const,
    queryFn: async () => {
      const body = await read(client.moderator.tracks.$get({ query: { downloaded: "true", page: "1", page_size: "10" } }));
      return { tracks: body.total, downloaded: body.filtered };
    },
    staleTime: 0,
  });

const faqQueries = staffFaqQueries("/moderator", moderatorKeys.faq, { retryOne: false });
export const moderatorFaqsQuery = faqQueries.list;
export const moderatorFaqQuery = faqQueries.one;

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

export const useModeratorFaqWrites = () => useStaffFaqWrites("/moderator", moderatorKeys.faq);
