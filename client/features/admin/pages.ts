/**
 * The admin panel's own pages, each its own chunk: client/router.tsx loads this list when a page of
 * it is opened or pointed at, so the public entry names one import for all of them (decision 0433).
 */
export const PAGES = {
  AdminLayout: () => import("./admin-layout.tsx"),
  AdminDashboardPage: () => import("./dashboard-page.tsx"),
  AdminFaqPage: () => import("./faq-page.tsx"),
  AdminFaqEditPage: () => import("./faq-edit-page.tsx"),
  AdminSliderPage: () => import("./slider-page.tsx"),
  AdminSliderEditPage: () => import("./slider-edit-page.tsx"),
  AdminUsersPage: () => import("./users-page.tsx"),
  AdminUserEditPage: () => import("./user-edit-page.tsx"),
  AdminRedisPage: () => import("./redis-page.tsx"),
  AdminIntakePage: () => import("./intake-page.tsx"),
};
