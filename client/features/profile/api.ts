import { queryOptions, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, rawBody, read } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { useCall } from "../../lib/use-call.ts";

/** A track in the user's own list (GET /api/tracks). */
export type MyTrack = InferResponseType<typeof client.tracks.$get>["tracks"][number];

export const myTracksQuery = queryOptions({
  queryKey: ["my-tracks"],
  queryFn: async () => (await read(client.tracks.$get())).tracks ?? [],
  staleTime: 10_000,
});

/** The profile lives in the auth store, not the query cache: a change there reloads the user. */
const reloadUser = () => auth.loadUser().then(() => undefined, () => undefined);

/** POST /api/profile/update (multipart: text fields and an optional avatar, read as a stream). */
export function useUpdateProfile() {
  return useCall((form: FormData) => read(client.profile.update.$post(undefined, rawBody(form))), reloadUser);
}

export type LinkAccountsBody =
  | { action: "link_telegram_to_vk"; phone_number: string }
  | { action: "link_vk_to_telegram"; telegram_hash: string };

/** POST /api/profile/link-accounts (spec 1 §7). */
export function useLinkAccounts() {
  return useCall((body: LinkAccountsBody) => read(client.profile["link-accounts"].$post(undefined, rawBody(body))));
}

/** GET /api/tracks/history: every submission, failed ones too, newest first (issue 13, decision 0161). */
export type Submission = InferResponseType<typeof client.tracks.history.$get>["tracks"][number];
export const HISTORY_PAGE_SIZE = 20;

/** One page of the history (plain queries, one per page shown: no infinite-query code in the public bundle). */
export const submissionHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: ["my-tracks", "history", page],
    queryFn: () =>
      read(client.tracks.history.$get({ query: { page: String(page), page_size: String(HISTORY_PAGE_SIZE) } })),
    staleTime: 10_000,
  });

/** Listening links live 30 minutes on the server; one younger than 20 is used again. */
const OWN_LISTEN_FRESH_MS = 20 * 60_000;

/**
 * GET /api/tracks/{id}/listen: the artist's own signed listening link and the stored peaks, for the
 * history's player of a track with comments shared by the label (issue 24, decision 0232).
 */
export const ownListenQuery = (id: number) =>
  queryOptions({
    queryKey: ["my-tracks", "listen", id],
    queryFn: async () => {
      const body = await read(client.tracks[":id"].listen.$get({ param: { id: String(id) } }));
      return {
        stream_url: body.stream_url,
        peaks: body.peaks as ReadonlyArray<readonly [number, number]> | null,
        duration_s: body.duration_s,
      };
    },
    staleTime: OWN_LISTEN_FRESH_MS,
    gcTime: OWN_LISTEN_FRESH_MS,
    retry: false,
  });

/** GET /api/profile/vk-messages (issue 36): the VK community, the allow-messages key, consent, channels. */
export const vkMessagesQuery = queryOptions({
  queryKey: ["profile", "vk-messages"],
  queryFn: () => read(client.profile["vk-messages"].$get()),
  // The key is short-lived (30 min): a profile left open asks again before pressing the button.
  staleTime: 5 * 60_000,
});

/** PUT /api/profile/channels: where the artist's answers go. */
export function useSetChannels() {
  const queryClient = useQueryClient();
  return useCall(
    (channels: ("telegram" | "vk")[]) => read(client.profile.channels.$put({ json: { channels } })),
    () => queryClient.invalidateQueries({ queryKey: vkMessagesQuery.queryKey }),
  );
}
