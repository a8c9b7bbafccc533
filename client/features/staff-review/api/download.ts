import { read, tokens } from "../../../lib/api.ts";
import { panel, type StaffBase } from "../../../lib/staff-queries.ts";

/**
 * The one download path of the staff panels (spec 2 §7): ask the API for a short-lived download
 * address, then open it in a new tab with the access token appended as `access_token`. The file
 * itself is a browser navigation to /api/downloads/:token, outside the typed client.
 */
export async function requestTrackDownload(base: StaffBase, ids: number[]): Promise<string> {
  const tracks = panel(base).tracks;
  const body = ids.length === 1
    ? await read(tracks.download[":id"].$get({ param: { id: String(ids[0]) } }))
    : await read(tracks.download.$post({ json: { track_ids: ids } }));
  return body.download_url;
}

export function withAccessToken(downloadUrl: string): string {
  const url = new URL(downloadUrl, location.origin);
  const token = tokens.access;
  if (token) url.searchParams.set("access_token", token);
  return url.origin === location.origin ? url.pathname + url.search : url.href;
}

export function openDownload(downloadUrl: string) {
  const href = withAccessToken(downloadUrl);
  // A blocked pop-up would lose the file; the same tab still gets it (an attachment does not navigate away).
  const tab = globalThis.open(href, "_blank");
  if (tab) tab.opener = null;
  else location.assign(href);
}

/** Requests and opens one download; resolves once the tab is opened. */
export async function downloadTracks(base: StaffBase, ids: number[]): Promise<void> {
  openDownload(await requestTrackDownload(base, ids));
}
