import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import type { User } from "../../lib/types.ts";
import { staffFaqQueries, staffTrackQuery, type TrackList, tzOffset } from "../../components/staff/staff-queries.ts";
import type { TrackFilterValues } from "../../components/staff/track-types.ts";

export type { Faq, TrackList } from "../../components/staff/staff-queries.ts";

/** Query-option factories of the admin panel (CONVENTIONS rule 8). Every call is under /api/admin. */

export interface TrackListParams extends TrackFilterValues {
  page: number;
  page_size: number;
}

export interface SliderTile {
  id: number;
  tile_type: "link" | "track";
  image_filename: string | null;
  image_url?: string | null;
  redirect_url: string | null;
  track_url: string | null;
}

export type AdminUser = User & { created_at?: string | number | null; last_login_at?: string | number | null };

export interface UserListParams {
  search: string;
  status: "all" | "active" | "banned";
  role: "all" | "admin" | "moderator" | "user";
}

export interface UserList {
  users: AdminUser[];
  total: number;
  filtered: number;
  pages: number;
  page: number;
}

// The server's own types: a change to the statistics answer breaks this build, not the dashboard.
import type { DashboardStats, Period } from "../../../server/admin/dashboard.ts";
export type { DashboardStats, Period };

/** One list's place on the status-store page: the server pages each list on its own. */
export interface RedisListPage {
  page: number;
  pages: number;
  total: number;
}

export interface RedisPageParams {
  page_size: number;
  track_ids_page: number;
  track_status_page: number;
  errors_page: number;
}

export interface RedisData {
  stats: { track_ids: number; track_ids_count: number; track_status: number; errors: number; success: number };
  /** The list of track ids of one upload batch (`values`; older answers call it `value`). */
  trackIds: Array<{ key: string; values?: unknown[]; value?: unknown }>;
  trackStatus: Array<{ key: string; value: { status?: string | null; filename?: string | null } | null }>;
  errorKeys: Array<{ key: string; value: unknown }>;
  successCount: number;
  paging: { page_size: number; trackIds: RedisListPage; trackStatus: RedisListPage; errorKeys: RedisListPage };
}

export const adminKeys = {
  tracks: ["admin", "tracks"] as const,
  faq: ["admin", "faq"] as const,
  slider: ["admin", "slider"] as const,
  users: ["admin", "users"] as const,
  dashboard: ["admin", "dashboard"] as const,
  redis: ["admin", "redis"] as const,
};

export const adminTracksQuery = (p: TrackListParams) =>
  queryOptions({
    queryKey: [...adminKeys.tracks, "list", p] as const,
    queryFn: ({ signal }) =>
      api<TrackList>("/admin/tracks", {
        signal,
        query: {
          filename: p.filename.trim(),
          user: p.user.trim(),
          date: p.date,
          direction: p.direction,
          downloaded: p.downloaded,
          page: p.page,
          page_size: p.page_size,
          tz_offset: tzOffset(),
        },
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminTrackQuery = staffTrackQuery("/admin", adminKeys.tracks);

const faqQueries = staffFaqQueries("/admin", adminKeys.faq);
export const adminFaqsQuery = faqQueries.list;
export const adminFaqQuery = faqQueries.one;

export const adminSlidersQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.slider, "list"] as const,
    queryFn: () => api<{ sliders: SliderTile[] }>("/admin/slider").then((b) => b.sliders ?? []),
    staleTime: 0,
  });

export const adminSliderQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminKeys.slider, "one", id] as const,
    queryFn: () => api<{ slider: SliderTile }>(`/admin/slider/${id}`).then((b) => b.slider),
    staleTime: 0,
  });

export const adminUsersQuery = (p: UserListParams & { page?: number; page_size?: number }) =>
  queryOptions({
    queryKey: [...adminKeys.users, "list", p] as const,
    queryFn: ({ signal }) =>
      api<UserList>("/admin/users", {
        signal,
        query: {
          search: p.search.trim(),
          status: p.status === "all" ? undefined : p.status,
          role: p.role === "all" ? undefined : p.role,
          page: p.page,
          page_size: p.page_size,
        },
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminUserQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminKeys.users, "one", id] as const,
    queryFn: () => api<{ user: AdminUser }>(`/admin/users/${id}`).then((b) => b.user),
    staleTime: 0,
  });

export const adminDashboardQuery = (period: Period) =>
  queryOptions({
    queryKey: [...adminKeys.dashboard, period] as const,
    queryFn: () => api<{ stats: DashboardStats }>("/admin/dashboard", { query: { period, tz_offset: tzOffset() } }).then((b) => b.stats),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminRedisQuery = (p: RedisPageParams) =>
  queryOptions({
    queryKey: [...adminKeys.redis, p] as const,
    queryFn: ({ signal }) => api<RedisData & { success: boolean }>("/admin/redis-data", { signal, query: { ...p } }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Slider images live in public storage by file name (spec 2 §7). */
export function sliderImageUrl(tile: Pick<SliderTile, "image_filename" | "image_url">): string | null {
  if (tile.image_url) return tile.image_url;
  return tile.image_filename ? `/static/storage/slider/${encodeURIComponent(tile.image_filename)}` : null;
}
