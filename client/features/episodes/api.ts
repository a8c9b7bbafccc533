import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { apiFetch, client, read } from "../../lib/api.ts";

/**
 * The episode desk's calls (issue 35) for both staff panels: the same endpoints under /api/admin
 * or /api/moderator, each panel with its own cache keys.
 */
export type EpisodeBase = "admin" | "moderator";

const api = (base: EpisodeBase) => (base === "admin" ? client.admin.episodes : client.moderator.episodes);

export type EpisodeView = InferResponseType<typeof client.admin.episodes[":id"]["$get"]>["episode"];
export type EpisodeSummary = InferResponseType<typeof client.admin.episodes.$get>["episodes"][number];
export type PoolTrack = InferResponseType<typeof client.admin.episodes.pool.$get>["pool"][number];
export type Suggestion = InferResponseType<typeof client.admin.episodes[":id"]["suggest-order"]["$post"]>;
export type AiredInput = InferRequestType<typeof client.admin.episodes[":id"]["aired"]["$post"]>["json"];
export type EpisodeInput = InferRequestType<typeof client.admin.episodes.$post>["json"];

export const episodeKeys = (base: EpisodeBase) => ({
  all: [base, "episodes"] as const,
  list: (direction: string) => [base, "episodes", "list", direction] as const,
  one: (id: number) => [base, "episodes", "one", id] as const,
  pool: (direction: string) => [base, "episodes", "pool", direction] as const,
});

export const episodeListQuery = (base: EpisodeBase, direction: string) =>
  queryOptions({
    queryKey: episodeKeys(base).list(direction),
    queryFn: () => read(api(base).$get({ query: { direction } })),
    staleTime: 0,
  });

export const episodeQuery = (base: EpisodeBase, id: number) =>
  queryOptions({
    queryKey: episodeKeys(base).one(id),
    queryFn: async () => (await read(api(base)[":id"].$get({ param: { id: String(id) } }))).episode,
    staleTime: 0,
    retry: false,
  });

export const poolQuery = (base: EpisodeBase, direction: string) =>
  queryOptions({
    queryKey: episodeKeys(base).pool(direction),
    queryFn: async () => (await read(api(base).pool.$get({ query: { direction } }))).pool,
    staleTime: 0,
  });

export function useCreateEpisode(base: EpisodeBase) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: EpisodeInput) => read(api(base).$post({ json })).then((b) => b.episode),
    onSuccess: () => qc.invalidateQueries({ queryKey: episodeKeys(base).all }),
  });
}

/** Every write of one episode answers the episode: it goes straight into the cache, the pool is read again. */
export function useEpisodeWrites(base: EpisodeBase, id: number, direction: string) {
  const qc = useQueryClient();
  const keys = episodeKeys(base);
  const done = (episode: EpisodeView) => {
    qc.setQueryData(keys.one(id), episode);
    void qc.invalidateQueries({ queryKey: keys.pool(direction) });
    void qc.invalidateQueries({ queryKey: keys.list(direction) });
  };
  const param = { id: String(id) };
  return {
    /**
     * The page saves its running order one call at a time, each the order as it then stands, and
     * takes only the last call's answer into the cache (`accept`): an earlier answer arriving while
     * the moderator keeps pressing keys would put back an order they have already changed.
     */
    order: useMutation({
      mutationFn: (items: { track_id: number; note: string | null }[]) =>
        read(api(base)[":id"].tracks.$put({ param, json: { items } })).then((b) => b.episode),
      onSuccess: () => qc.invalidateQueries({ queryKey: keys.pool(direction) }),
      onError: () => qc.invalidateQueries({ queryKey: keys.one(id) }),
    }),
    accept: done,
    suggest: useMutation({
      mutationFn: (first?: number) =>
        read(api(base)[":id"]["suggest-order"].$post({ param, json: first ? { first_track_id: first } : {} })),
    }),
    aired: useMutation({
      mutationFn: (json: AiredInput) => read(api(base)[":id"].aired.$post({ param, json })).then((b) => b.episode),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: () => read(api(base)[":id"].$delete({ param })),
      onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
    }),
  };
}

/** Downloads one of the episode's exports with the session's token and saves it under the server's name. */
export async function downloadExport(
  base: EpisodeBase,
  id: number,
  file: "tracklist.txt" | "tracklist.csv" | "files.zip",
) {
  const res = await apiFetch({ timeoutMs: 600_000 })(`/api/${base}/episodes/${id}/${file}`);
  const disposition = res.headers.get("content-disposition") ?? "";
  const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const name = star ? decodeURIComponent(star) : file;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A track on the episode page: in the running order, or one of the pool's. */
export type Row = EpisodeView["tracks"][number] | PoolTrack;

/** The episode page's writes (`useEpisodeWrites`). */
export type EpisodeWrites = ReturnType<typeof useEpisodeWrites>;
