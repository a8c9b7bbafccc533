import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { client, read } from "./api.ts";

/**
 * Query-option factories and write hooks the admin and moderator panels share: the same endpoints
 * under their own base path (/api/admin or /api/moderator) and their own cache keys, so the panels
 * never read each other's cache. The api files of features/admin, features/moderator and
 * features/staff-review build theirs from these; it is in lib/ because three features use it and
 * none may import another (decision 0211).
 */

export type StaffBase = "/admin" | "/moderator";

/** The typed API of one panel. */
export const panel = (base: StaffBase) => (base === "/admin" ? client.admin : client.moderator);

/** A FAQ entry as the staff FAQ calls answer it. */
export type Faq = InferResponseType<typeof client.admin.faq[":id"]["$get"]>["faq"];

/** One page of the staff track list (both panels answer the same shape). */
export type TrackList = InferResponseType<typeof client.admin.tracks.$get>;

/** A track as the staff track calls answer it. */
export type StaffTrack = InferResponseType<typeof client.admin.tracks[":id"]["$get"]>["track"];

/** A row of the staff track list (the single-track answer carries more, e.g. its decision history). */
export type StaffTrackRow = TrackList["tracks"][number];

/** What the FAQ forms send: all three fields, which both create and update accept. */
export type FaqInput =
  & InferRequestType<typeof client.admin.faq.$post>["json"]
  & InferRequestType<typeof client.admin.faq[":id"]["$put"]>["json"];

/** The public FAQ page's cache (features/faq): staff changes refresh it too. */
const PUBLIC_FAQ_KEY = ["faq"] as const;

export interface StaffQueryOptions {
  /** `false` where a failed single-item load should show its error at once instead of asking again. */
  retryOne?: false;
}

const byOrder = (a: Faq, z: Faq) => a.order - z.order || a.id - z.id;

/** The FAQ list (by order, then id) and one FAQ entry of `${base}/faq`. */
export function staffFaqQueries(base: StaffBase, key: readonly string[], opts: StaffQueryOptions = {}) {
  const retry = opts.retryOne === false ? { retry: false as const } : {};
  const faq = panel(base).faq;
  return {
    list: () =>
      queryOptions({
        queryKey: [...key, "list"] as const,
        queryFn: () => read(faq.$get()).then((b) => [...(b.faqs ?? [])].sort(byOrder)),
        staleTime: 0,
      }),
    one: (id: number) =>
      queryOptions({
        queryKey: [...key, "one", id] as const,
        queryFn: () => read(faq[":id"].$get({ param: { id: String(id) } })).then((b) => b.faq),
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
      queryFn: () => read(panel(base).tracks[":id"].$get({ param: { id: String(id) } })).then((b) => b.track),
      ...retry,
      staleTime: 0,
    });
}

/**
 * Saving and deleting FAQ entries of `${base}/faq`. A success refreshes the panel's FAQ queries
 * (awaited, so the screen shows the new list when the call resolves) and, in the background, the
 * public FAQ page.
 */
export function useStaffFaqWrites(base: StaffBase, key: readonly string[]) {
  const queryClient = useQueryClient();
  const faq = panel(base).faq;
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: PUBLIC_FAQ_KEY });
  };
  const save = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: FaqInput }) =>
      id === null ? read(faq.$post({ json: body })) : read(faq[":id"].$put({ param: { id: String(id) }, json: body })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => read(faq[":id"].$delete({ param: { id: String(id) } })),
    onSuccess: refresh,
  });
  return { save, remove };
}

/** Deleting a track of `${base}/tracks`; the caller refreshes what shows it (list, dashboard). */
export function useStaffTrackDelete(
  base: StaffBase,
  keys: { tracks: readonly string[]; dashboard: readonly string[] },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => read(panel(base).tracks[":id"].$delete({ param: { id: String(id) } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.tracks });
      await queryClient.invalidateQueries({ queryKey: keys.dashboard });
    },
  });
}

/** Minutes east of UTC, so day filters and timeline buckets follow the staff member's own calendar. */
export const tzOffset = () => -new Date().getTimezoneOffset();

/**
 * The panels' cache keys, in one place so a write in one feature can refresh what another shows
 * (a track deleted in the review list changes the dashboard) without importing it.
 */
export const adminKeys = {
  tracks: ["admin", "tracks"] as const,
  faq: ["admin", "faq"] as const,
  slider: ["admin", "slider"] as const,
  users: ["admin", "users"] as const,
  dashboard: ["admin", "dashboard"] as const,
  redis: ["admin", "redis"] as const,
};

export const moderatorKeys = {
  status: ["moderator", "status"] as const,
  tracks: ["moderator", "tracks"] as const,
  faq: ["moderator", "faq"] as const,
  dashboard: ["moderator", "dashboard"] as const,
};
