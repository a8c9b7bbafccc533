import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import type { LabelCopy, ReleasePatch } from "../../../domain/release-schemas.ts";
import { ApiError, client, read, refreshSession, tokens } from "../../lib/api.ts";

/**
 * The release desk's staff calls (issue 34): the list, one release, its change, calendar and
 * exports, for either panel. Apart from api.ts (the artist's calls) so the artist's pages carry none.
 */
export type Panel = "admin" | "moderator";

export type StaffRelease = InferResponseType<typeof client.admin.releases.$get>["releases"][number];
export type StaffReleaseOne = InferResponseType<(typeof client.admin.releases)[":id"]["$get"]>;
export type CalendarDay = InferResponseType<typeof client.admin.releases.calendar.$get>["days"][number];

const panelApi = (panel: Panel) => (panel === "admin" ? client.admin.releases : client.moderator.releases);

export interface StaffListFilters {
  direction?: string;
  stage?: string;
  from?: string;
  to?: string;
  page?: number;
  sort?: "newest" | "oldest";
}

export const staffReleasesKey = (panel: Panel) => [panel, "releases"] as const;

export const staffReleasesQuery = (panel: Panel, f: StaffListFilters) =>
  queryOptions({
    queryKey: [...staffReleasesKey(panel), "list", f],
    queryFn: async () =>
      await read(
        panelApi(panel).$get({
          query: {
            direction: f.direction ?? "",
            stage: f.stage ?? "",
            from: f.from ?? "",
            to: f.to ?? "",
            page: String(f.page ?? 1),
            sort: f.sort ?? "",
          } as never,
        }),
      ),
    staleTime: 0,
  });

export const staffReleaseQuery = (panel: Panel, id: number) =>
  queryOptions({
    queryKey: [...staffReleasesKey(panel), "one", id],
    queryFn: async () => await read(panelApi(panel)[":id"].$get({ param: { id: String(id) } })),
    staleTime: 0,
  });

export const staffCalendarQuery = (panel: Panel, q: { direction: string; from: string; to: string }) =>
  queryOptions({
    queryKey: [...staffReleasesKey(panel), "calendar", q],
    queryFn: async () => await read(panelApi(panel).calendar.$get({ query: q as never })),
    staleTime: 0,
  });

export function usePatchRelease(panel: Panel, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: ReleasePatch) => read(panelApi(panel)[":id"].$patch({ param: { id: String(id) }, json })),
    onSuccess: () => qc.invalidateQueries({ queryKey: staffReleasesKey(panel) }),
  });
}

export function useSaveStaffLabelCopy(panel: Panel, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: LabelCopy) =>
      read(panelApi(panel)[":id"]["label-copy"].$put({ param: { id: String(id) }, json })),
    onSuccess: () => qc.invalidateQueries({ queryKey: staffReleasesKey(panel) }),
  });
}

/**
 * A file answer of a staff call (CSV, ZIP), fetched with the session's token and handed to the
 * browser as a download under the name the server gave.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  // Not through the typed client: its fetch reads answers as text, which a ZIP is not.
  const get = () => fetch(`/api${path}`, { headers: { Authorization: `Bearer ${tokens.access ?? ""}` } });
  let res = await get();
  if (res.status === 401 && (await refreshSession()) === "renewed") res = await get();
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { error?: string } | null;
    throw new ApiError(res.status, body?.error ?? `${res.status}`, body);
  }
  const blob = await res.blob();
  const disposition = res.headers.get("content-disposition") ?? "";
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : /filename="([^"]+)"/.exec(disposition)?.[1];
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
