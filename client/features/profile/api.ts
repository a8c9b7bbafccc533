import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import type { User } from "../../lib/types.ts";

/** A track in the user's own list (GET /api/tracks). */
export interface MyTrack {
  id: number;
  filename: string;
  upload_date: string | number;
  downloaded: boolean;
}

export const myTracksQuery = queryOptions({
  queryKey: ["my-tracks"],
  queryFn: async () => (await api<{ tracks?: MyTrack[] }>("/tracks")).tracks ?? [],
  staleTime: 10_000,
});

/** POST /api/profile/update (multipart: text fields and an optional avatar). */
export function updateProfile(form: FormData) {
  return api<{ success: true; message: string; user: User }>("/profile/update", { method: "POST", body: form });
}

/** POST /api/profile/link-accounts (spec 1 §7). */
export function linkAccounts(
  body:
    | { action: "link_telegram_to_vk"; phone_number: string }
    | { action: "link_vk_to_telegram"; telegram_hash: string },
) {
  return api<{ success: true; message: string }>("/profile/link-accounts", { method: "POST", body });
}
