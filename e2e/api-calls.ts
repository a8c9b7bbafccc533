/**
 * The page's own API calls (`/api/…` on its server) as the browser makes them: `settled()` resolves
 * once every call started so far has answered or failed, on the request events themselves. A test
 * that lays out or screenshots a page waits on this after its heading, instead of waiting for the
 * whole network to go quiet (streams and iframes may never; docs/decisions/0447).
 */
import type { Page } from "./harness.ts";

export function watchApiCalls(page: Page): { settled(): Promise<void> } {
  const open = new Set<unknown>();
  let waiters: (() => void)[] = [];
  const isApi = (url: string) => new URL(url).pathname.startsWith("/api/");
  const done = (r: { url(): string }) => {
    if (!open.delete(r)) return;
    if (open.size > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  page.on("request", (r) => void (isApi(r.url()) && open.add(r)));
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    settled: () => open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
