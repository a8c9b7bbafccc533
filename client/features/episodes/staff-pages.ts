/**
 * The episode desk's pages in both panels (the public show page is not one of them): client/router.tsx
 * loads this list when one of them is opened or pointed at, so the public entry names one import for
 * all (decision 0433).
 */
const list = () => import("./episodes-page.tsx");
const one = () => import("./episode-page.tsx");

export const PAGES = {
  AdminEpisodesPage: list,
  AdminEpisodePage: one,
  ModeratorEpisodesPage: list,
  ModeratorEpisodePage: one,
};
