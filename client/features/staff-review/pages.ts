/**
 * The review desk's pages in both panels, each its own chunk: client/router.tsx loads this list when
 * one of them is opened or pointed at, so the public entry names one import for all (decision 0433).
 */
export const PAGES = {
  AdminTracksPage: () => import("./queue/admin-tracks-page.tsx"),
  AdminTrackEditPage: () => import("./edit/admin-track-edit-page.tsx"),
  AdminDeclineTemplatesPage: () => import("./edit/decline-templates-page.tsx"),
  ModeratorTracksPage: () => import("./queue/moderator-tracks-page.tsx"),
  ModeratorTrackEditPage: () => import("./edit/moderator-track-edit-page.tsx"),
};
