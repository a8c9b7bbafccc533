import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, read } from "../../lib/api.ts";

/** A home-page slider tile (GET /api/slider, public). */
export type SliderTile = InferResponseType<typeof client.slider.$get>["sliders"][number];

export const sliderQuery = queryOptions({
  queryKey: ["slider"],
  queryFn: async () => (await read(client.slider.$get())).sliders ?? [],
  staleTime: 5 * 60_000,
});

/** The SoundCloud widget address for a track page (spec 1 §2: a player 166 px high). */
export function soundCloudPlayerUrl(trackUrl: string): string {
  return `https://w.soundcloud.com/player/?url=${encodeURIComponent(trackUrl)}`;
}

/** Only http(s) links are followed from a tile; anything else is not rendered as a link. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, location.origin);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
