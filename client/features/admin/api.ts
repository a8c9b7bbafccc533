import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { client, rawBody, read } from "../../lib/api.ts";
import type { TrackFilterValues } from "../../components/staff/track-filters.tsx";
import {
  staffFaqQueries,
  staffTrackQuery,
  useStaffFaqWrites,
} from "../../components/staff/staff-queries.ts";
import { tzOffset } from "../../components/staff/staff-queries.ts";

export type { Faq, TrackList } from "../../components/staff/staff-queries.ts";

/**
 * Query-option factories and write hooks of the admin panel (CONVENTIONS rule 8). Every call is
 * under /api/admin and typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

export interface TrackListParams extends TrackFilterValues {
  page: number;
  page_size: number;
  /** `field` or `-field` (track-list-search.ts); the server's default when absent. */
  sort?: string;
}

export type SliderTile = InferResponseType<typeof admin.slider[":id"]["$get"]>["slider"];

export type AdminUser = InferResponseType<typeof admin.users[":id"]["$get"]>["user"];

export interface UserListParams {
  search: string;
  status: "all" | "active" | "banned";
  role: "all" | "admin" | "moderator" | "user";
}

export type UserList = InferResponseType<typeof admin.users.$get>;

export type DashboardStats = InferResponseType<typeof admin.dashboard.$get>["stats"];
export type Period = DashboardStats["track_timeline"]["period"];

export type RedisData = InferResponseType<typeof admin["redis-data"]["$get"]>;
/** One list's place on the status-store page: the server pages each list on its own. */
export type RedisListPage = RedisData["paging"]["trackIds"];

export interface RedisPageParams {
  page_size: number;
  track_ids_page: number;
  track_status_page: number;
  errors_page: number;
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
      read(admin.tracks.$get({
        query: {
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
          page_size: String(p.page_size),
          tz_offset: String(tzOffset()),
        },
      }, { init: { signal } })),
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
    queryFn: () => read(admin.slider.$get()).then((b) => b.sliders ?? []),
    staleTime: 0,
  });

export const adminSliderQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminKeys.slider, "one", id] as const,
    queryFn: () => read(admin.slider[":id"].$get({ param: { id: String(id) } })).then((b) => b.slider),
    staleTime: 0,
  });

export const adminUsersQuery = (p: UserListParams & { page?: number; page_size?: number }) =>
  queryOptions({
    queryKey: [...adminKeys.users, "list", p] as const,
    queryFn: ({ signal }) =>
      read(admin.users.$get({
        query: {
          search: p.search.trim(),
          status: p.status === "all" ? undefined : p.status,
          role: p.role === "all" ? undefined : p.role,
          page: p.page === undefined ? undefined : String(p.page),
          page_size: p.page_size === undefined ? undefined : String(p.page_size),
        },
      }, { init: { signal } })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminUserQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminKeys.users, "one", id] as const,
    queryFn: () => read(admin.users[":id"].$get({ param: { id: String(id) } })).then((b) => b.user),
    staleTime: 0,
  });

export const adminDashboardQuery = (period: Period) =>
  queryOptions({
    queryKey: [...adminKeys.dashboard, period] as const,
    queryFn: () =>
      read(admin.dashboard.$get({ query: { period, tz_offset: String(tzOffset()) } })).then((b) => b.stats),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

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

/** Slider images live in public storage by file name (spec 2 §7). */
export function sliderImageUrl(tile: Pick<SliderTile, "image_filename" | "image_url">): string | null {
  if (tile.image_url) return tile.image_url;
  return tile.image_filename ? `/static/storage/slider/${encodeURIComponent(tile.image_filename)}` : null;
}

// --- Writes -------------------------------------------------------------------------------------

/** What the track form sends (create and update take the same fields). */
export type TrackInput = InferRequestType<typeof admin.tracks.$post>["json"];

/**
 * Creates (`id` null) or updates a track. An update puts the answer in the track's cache; either
 * way the lists are refetched (inactive ones too, for the way back) and the dashboard in the background.
 */
export function useSaveAdminTrack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TrackInput }) =>
      id === null
        ? read(admin.tracks.$post({ json: body }))
        : read(admin.tracks[":id"].$put({ param: { id: String(id) }, json: body })),
    onSuccess: async (answer, { id }) => {
      if (id !== null && answer.track) queryClient.setQueryData([...adminKeys.tracks, "one", id], answer.track);
      await queryClient.invalidateQueries({ queryKey: [...adminKeys.tracks, "list"], refetchType: "all" });
      void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard });
    },
  });
}

export const useAdminFaqWrites = () => useStaffFaqWrites("/admin", adminKeys.faq);

/**
 * Spec 2 §4: moving swaps the order values of an entry and its neighbour with two updates. The
 * list is refetched whatever happened, so a half-done move shows as it is.
 */
export function useMoveAdminFaq() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (moves: Array<{ id: number; order: number }>) => {
      for (const m of moves) await read(admin.faq[":id"].$put({ param: { id: String(m.id) }, json: { order: m.order } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.faq }),
  });
}

/**
 * Creates (`id` null) or updates a slider tile: multipart when a new image goes with it, else JSON
 * (spec 2 §7). The route reads either body itself, so only its answer is typed. The caller refreshes.
 */
export function useSaveSliderTile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: FormData | Record<string, unknown> }) =>
      id === null
        ? read(admin.slider.$post(undefined, rawBody(body)))
        : read(admin.slider[":id"].$put({ param: { id: String(id) } }, rawBody(body))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.slider }),
  });
}

export function useDeleteSliderTile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => read(admin.slider[":id"].$delete({ param: { id: String(id) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.slider }),
  });
}

/**
 * The user form builds its payload field by field (user-form.ts: empty optional values as null on
 * create, left out on update); the server validates every field again.
 */
type UserPayload = Record<string, unknown>;
type UserCreate = InferRequestType<typeof admin.users.$post>["json"];
type UserUpdate = InferRequestType<typeof admin.users[":id"]["$put"]>["json"];

/** Users and the dashboard's user counts change with any user write; both refetch in the background. */
function useUserRefresh() {
  const queryClient = useQueryClient();
  return (key: readonly unknown[] = adminKeys.users) => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard });
  };
}

export function useCreateAdminUser() {
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: (body: UserPayload) => read(admin.users.$post({ json: body as UserCreate })),
    onSuccess: () => refresh([...adminKeys.users, "list"]),
  });
}

/** Updates a user and puts the answer in that user's cache. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserPayload }) =>
      read(admin.users[":id"].$put({ param: { id: String(id) }, json: body as UserUpdate })),
    onSuccess: (answer, { id }) => {
      queryClient.setQueryData([...adminKeys.users, "one", id], answer.user);
      refresh([...adminKeys.users, "list"]);
    },
  });
}

/** Ban, unban or delete from the users list. */
export function useAdminUserAction() {
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: "ban" | "unban" | "delete"; id: number }) => {
      const param = { id: String(id) };
      if (kind === "ban") return read(admin.users[":id"].ban.$post({ param, json: {} }));
      if (kind === "unban") return read(admin.users[":id"].unban.$post({ param }, rawBody({})));
      return read(admin.users[":id"].$delete({ param }));
    },
    onSuccess: () => refresh(),
  });
}

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
