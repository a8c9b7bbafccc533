import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { StaffTrack, TrackFilterValues } from "../../components/staff/track-types.ts";
import { api, ApiError } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { type ModeratorStatus, normalizeCategories } from "./categories.ts";

/** Query-option factories of the moderator panel (CONVENTIONS rule 8). Calls go to /api/moderator. */

export const MODERATOR_PAGE_SIZE = 10;

export interface TrackListParams extends TrackFilterValues {
  page: number;
}

export interface TrackList {
  tracks: StaffTrack[];
  total: number;
  filtered: number;
  page: number;
  pages: number;
}

export interface Faq {
  id: number;
  question: string;
  answer: string;
  order: number;
}

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

const tzOffset = () => -new Date().getTimezoneOffset();

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

export const moderatorTrackQuery = (id: number) =>
  queryOptions({
    queryKey: [...moderatorKeys.tracks, "one", id] as const,
    queryFn: () => api<{ track: StaffTrack }>(`/moderator/tracks/${id}`).then((b) => b.track),
    retry: false,
    staleTime: 0,
  });

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

export const moderatorFaqsQuery = () =>
  queryOptions({
    queryKey: [...moderatorKeys.faq, "list"] as const,
    queryFn: () =>
      api<{ faqs: Faq[] }>("/moderator/faq").then((b) => [...(b.faqs ?? [])].sort((a, z) => a.order - z.order || a.id - z.id)),
    staleTime: 0,
  });

export const moderatorFaqQuery = (id: number) =>
  queryOptions({
    queryKey: [...moderatorKeys.faq, "one", id] as const,
    queryFn: () => api<{ faq: Faq }>(`/moderator/faq/${id}`).then((b) => b.faq),
    retry: false,
    staleTime: 0,
  });
