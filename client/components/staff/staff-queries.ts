import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import type { StaffTrack } from "./track-types.ts";

/**
 * Query-option factories the admin and moderator panels share: the same endpoints under their own
 * base path (/api/admin or /api/moderator) and their own cache keys, so the panels never read each
 * other's cache. Each feature's api.ts builds its factories from these.
 */

export type StaffBase = "/admin" | "/moderator";

export interface Faq {
  id: number;
  question: string;
  answer: string;
  order: number;
}

export interface TrackList {
  tracks: StaffTrack[];
  total: number;
  filtered: number;
  page: number;
  pages: number;
}

export interface StaffQueryOptions {
  /** `false` where a failed single-item load should show its error at once instead of asking again. */
  retryOne?: false;
}

/** The FAQ list (by order, then id) and one FAQ entry of `${base}/faq`. */
export function staffFaqQueries(base: StaffBase, key: readonly string[], opts: StaffQueryOptions = {}) {
  const retry = opts.retryOne === false ? { retry: false as const } : {};
  return {
    list: () =>
      queryOptions({
        queryKey: [...key, "list"] as const,
        queryFn: () =>
          api<{ faqs: Faq[] }>(`${base}/faq`).then((b) => [...(b.faqs ?? [])].sort((a, z) => a.order - z.order || a.id - z.id)),
        staleTime: 0,
      }),
    one: (id: number) =>
      queryOptions({
        queryKey: [...key, "one", id] as const,
        queryFn: () => api<{ faq: Faq }>(`${base}/faq/${id}`).then((b) => b.faq),
        ...retry,
        staleTime: 0,
      }),
  };
}

/** One track of `${base}/tracks/:id`. */
export function staffTrackQuery(base: StaffBase, key: readonly string[], opts: StaffQueryOptions = {}) {
  const retry = opts.retryOne === false ? { retry: false as const } : {};
  return (id: number) =>
    queryOptions({
      queryKey: [...key, "one", id] as const,
      queryFn: () => api<{ track: StaffTrack }>(`${base}/tracks/${id}`).then((b) => b.track),
      ...retry,
      staleTime: 0,
    });
}

/** Minutes east of UTC, so day filters and timeline buckets follow the staff member's own calendar. */
export const tzOffset = () => -new Date().getTimezoneOffset();
