import { api, tokens } from "../../lib/api.ts";

/**
 * The one download path of the staff panels (spec 2 §7): ask the API for a short-lived download
 * address, then open it in a new tab with the access token appended as `access_token`.
 * `base` is "/admin" or "/moderator".
 */
export async function requestTrackDownload(base: string, ids: number[]): Promise<string> {
  const body = ids.length === 1
    ? await api<{ download_url: string }>(`${base}/tracks/download/${ids[0]}`)
    : await api<{ download_url: string }>(`${base}/tracks/download`, { method: "POST", body: { track_ids: ids } });
  if (!body.download_url) throw new Error("no download_url");
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
export async function downloadTracks(base: string, ids: number[]): Promise<void> {
  openDownload(await requestTrackDownload(base, ids));
}
