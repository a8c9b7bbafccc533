/**
 * What TanStack Router's scroll-restoration module does for this app, which sets `scrollRestoration:
 * false` (client/router.tsx): after each rendered navigation, the top of the page, unless the
 * navigation asked to keep the place (`resetScroll: false`) or goes to a #section, which is scrolled
 * into view. The build points router-core's import of its module here (vite.config.ts `TRIMMED`,
 * decision 0433): the rest of it (saving and restoring places per entry, scroll-to-top selectors) is for
 * `scrollRestoration: true`, which this app does not use, and was 0.7 KB of every visitor's download.
 */

interface ScrollState {
  /** Reset on the next rendered navigation (the router sets it from `resetScroll`). */
  n?: boolean;
  /** The navigation was a push or replace (the router's own hash-navigation flag). */
  h?: boolean;
  /** Set up already. */
  r?: boolean;
}

interface RenderedEvent {
  toLocation: { hash: string; state: { __hashScrollIntoViewOptions?: boolean | ScrollIntoViewOptions } };
}

export interface ScrollRouter {
  _scroll: ScrollState;
  options: { scrollRestoration?: unknown; scrollRestorationBehavior?: ScrollBehavior };
  subscribe(event: "onRendered", fn: (event: RenderedEvent) => void): unknown;
}

export function setupScrollRestoration(router: ScrollRouter): void {
  if (router.options.scrollRestoration) throw new Error("client/lib/scroll-on-navigation.ts: scrollRestoration is off");
  const scroll = router._scroll;
  if (scroll.r) return;
  scroll.r = true;
  router.subscribe("onRendered", (event) => {
    const reset = scroll.n;
    scroll.n = true;
    scroll.h = false;
    const hash = event.toLocation.hash;
    const into = event.toLocation.state.__hashScrollIntoViewOptions ?? true;
    if (reset && !hash) scrollTo({ top: 0, left: 0, behavior: router.options.scrollRestorationBehavior });
    if (hash && into) document.getElementById(hash)?.scrollIntoView(into);
  });
}

// The rest of the module's exports, for router-core's index; nothing here calls them.
export const storageKey = "tsr-scroll-restoration-v1_3";
export const defaultGetScrollRestorationKey = (location: { href: string; state: { __TSR_key?: string } }) =>
  location.state.__TSR_key || location.href;
export const getElementScrollRestorationEntry = (): undefined => undefined;
