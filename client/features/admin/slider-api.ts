import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, rawBody, read } from "../../lib/api.ts";
import { adminKeys } from "../../lib/staff-queries.ts";

/**
 * The admin's slider tiles (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

export type SliderTile = InferResponseType<typeof admin.slider[":id"]["$get"]>["slider"];

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

/** Slider images live in public storage by file name (spec 2 §7). */
export function sliderImageUrl(tile: Pick<SliderTile, "image_filename" | "image_url">): string | null {
  if (tile.image_url) return tile.image_url;
  return tile.image_filename ? `/static/storage/slider/${encodeURIComponent(tile.image_filename)}` : null;
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
