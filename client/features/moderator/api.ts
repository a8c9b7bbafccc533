import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { staffFaqQueries, staffTrackQuery, type TrackList, tzOffset } from "../../components/staff/staff-queries.ts";
import type { TrackFilterValues } from "../../components/staff/track-types.ts";
import { api, ApiError } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { type ModeratorStatus, normalizeCategories } from "./categories.ts";

/** Query-option factories of the moderator panel (CONVENTIONS rule 8). Calls go to /api/moderator. */

export const MODERATOR_PAGE_SIZE = 10;

export interface TrackListParams extends TrackFilterValues {
  page: number;
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
      const body = await api<{ status?: { is_moderator?: boolean; categories?: unknown } }>("/moderator/status");
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
    page: p.page,
    page_size: MODERATOR_PAGE_SIZE,
    tz_offset: tzOffset(),
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
        return await api<TrackList>("/moderator/tracks", { signal, query });
      } catch (err) {
        if (!auth.isAdmin || (err instanceof DOMException && err.name === "AbortError")) throw err;
        try {
          return await api<TrackList>("/admin/tracks", { signal, query });
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
      const body = await api<TrackList>("/moderator/tracks", { query: { downloaded: "true", page: 1, page_size: 10 } });
      return { tracks: body.total, downloaded: body.filtered };
    },
    staleTime: 0,
  });

const faqQueries = staffFaqQueries("/moderator", moderatorKeys.faq, { retryOne: false });
export const moderatorFaqsQuery = faqQueries.list;
export const moderatorFaqQuery = faqQueries.one;
