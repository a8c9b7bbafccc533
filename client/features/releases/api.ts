import { queryOptions, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import type { LabelCopy } from "../../../domain/release-schemas.ts";
import { client, read } from "../../lib/api.ts";
import { useCall } from "../../lib/use-call.ts";

/**
 * The artist's release calls (issue 34): their own releases and label copy. The staff's calls are in
 * staff-api.ts, so the artist's chunk carries none of them.
 */
export type ArtistRelease = InferResponseType<typeof client.releases.$get>["releases"][number];

export const artistReleasesKey = ["releases"] as const;

export const artistReleasesQuery = () =>
  queryOptions({
    queryKey: artistReleasesKey,
    queryFn: async () => (await read(client.releases.$get())).releases,
    staleTime: 0,
  });

export const artistReleaseQuery = (id: number) =>
  queryOptions({
    queryKey: [...artistReleasesKey, id],
    queryFn: async () => (await read(client.releases[":id"].$get({ param: { id: String(id) } }))).release,
    staleTime: 0,
  });

export function useSaveArtistLabelCopy(id: number) {
  const qc = useQueryClient();
  return useCall(
    (json: LabelCopy) => read(client.releases[":id"]["label-copy"].$put({ param: { id: String(id) }, json })),
    () => qc.invalidateQueries({ queryKey: artistReleasesKey }),
  );
}
