import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** A home-page slider tile (GET /api/slider, public). */
export interface SliderTile {
  id: number;
  tile_type: "link" | "track";
  image_filename: string | null;
  image_url: string | null;
  redirect_url: string | null;
  track_url: string | null;
}

export const sliderQuery = queryOptions({
  queryKey: ["slider"],
  queryFn: async () => (await api<{ sliders?: SliderTile[] }>("/slider")).sliders ?? [],
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
