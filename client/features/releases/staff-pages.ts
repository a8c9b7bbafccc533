/**
 * The release desk's pages in both panels: client/router.tsx loads this list when one of them is
 * opened or pointed at, so the public entry names one import for all (decision 0433).
 */
const list = () => import("./staff-list-page.tsx");
const one = () => import("./staff-release-page.tsx");

export const PAGES = {
  AdminReleasesPage: list,
  AdminReleasePage: one,
  ModeratorReleasesPage: list,
  ModeratorReleasePage: one,
};
