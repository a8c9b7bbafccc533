/**
 * The moderator panel's own pages, each its own chunk: client/router.tsx loads this list when a page
 * of it is opened or pointed at, so the public entry names one import for all of them (decision 0433).
 */
export const PAGES = {
  ModeratorLayout: () => import("./moderator-layout.tsx"),
  ModeratorDashboardPage: () => import("./dashboard-page.tsx"),
  ModeratorFaqPage: () => import("./faq-page.tsx"),
  ModeratorFaqEditPage: () => import("./faq-edit-page.tsx"),
  ModeratorIntakePage: () => import("./intake-page.tsx"),
};
