import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Navigate,
  redirect,
} from "@tanstack/react-router";
import { RootLayout } from "./components/root-layout.tsx";
import { RouteError } from "./components/route-error.tsx";
import { AuthOverlays } from "./features/auth/auth-overlays.tsx";
import { AuthCallbackPage } from "./features/auth/callback-page.tsx";
import { LoginPage } from "./features/auth/login-page.tsx";
import { FaqPage } from "./features/faq/faq-page.tsx";
import { AboutPage } from "./features/info/about-page.tsx";
import { ErrorPage } from "./features/info/error-page.tsx";
import { MaintenancePage } from "./features/info/maintenance-page.tsx";
import { PrivacyPage } from "./features/info/privacy-page.tsx";
import { SuccessPage } from "./features/info/success-page.tsx";
import { UploadPage } from "./features/upload/upload-page.tsx";
import { setApiHooks } from "./lib/api.ts";
import type { RouterContext } from "./lib/router-context.ts";
import { configQuery } from "./lib/config-query.ts";
import type { UsersListSearch } from "./features/admin/users-list-search.ts";
import type { TrackListSearch } from "./features/staff-review/queue/track-list-search.ts";
import { MODERATOR_QUEUE_START } from "./features/staff-review/queue/queue-start.ts";
import { guestOnly, requireAdmin, requireSignedIn, requireStaff, rootGuard } from "./lib/guards.ts";

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => <RootLayout overlays={<AuthOverlays />} />,
  beforeLoad: rootGuard,
  // Unknown paths go home (spec 1 §2). A redirect thrown while rendering is not caught as a
  // navigation: TanStack Router shows its error screen instead, so navigate from an element.
  notFoundComponent: () => <Navigate to="/" replace />,
});

const route = <P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

// Public pages.
const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: UploadPage,
  validateSearch: (s: Record<string, unknown>) => ({
    access_token: typeof s.access_token === "string" ? s.access_token : undefined,
    refresh_token: typeof s.refresh_token === "string" ? s.refresh_token : undefined,
  }),
});
const aboutRoute = route("/about", AboutPage);
const faqRoute = route("/faq", FaqPage);
const privacyRoute = route("/privacy", PrivacyPage);
const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/error",
  component: ErrorPage,
  validateSearch: (s: Record<string, unknown>) => ({
    message: typeof s.message === "string" ? s.message : undefined,
  }),
});
const maintenanceRoute = route("/maintenance", MaintenancePage);

// Guest only.
const guestLayout = createRoute({ getParentRoute: () => rootRoute, id: "guest", beforeLoad: guestOnly });
const loginRoute = createRoute({
  getParentRoute: () => guestLayout,
  path: "/login",
  component: LoginPage,
  validateSearch: (s: Record<string, unknown>) => s as Record<string, string | undefined>,
});
const callbackRoute = createRoute({
  getParentRoute: () => guestLayout,
  path: "/auth/$provider/callback",
  component: AuthCallbackPage,
  validateSearch: (s: Record<string, unknown>) => s as Record<string, string | undefined>,
});

// Signed in.
const signedInLayout = createRoute({ getParentRoute: () => rootRoute, id: "signed-in", beforeLoad: requireSignedIn });
const signedIn = <P extends string>(path: P, component: ReturnType<typeof lazyRouteComponent>) =>
  createRoute({ getParentRoute: () => signedInLayout, path, component });
const profileRoute = signedIn(
  "/profile",
  lazyRouteComponent(() => import("./features/profile/profile-page.tsx"), "ProfilePage"),
);
const profileEditRoute = signedIn(
  "/profile/edit",
  lazyRouteComponent(() => import("./features/profile/profile-edit-page.tsx"), "ProfileEditPage"),
);
const processingRoute = signedIn(
  "/processing",
  lazyRouteComponent(() => import("./features/processing/processing-page.tsx"), "ProcessingPage"),
);
// The artist's releases (issue 34).
const releasesRoute = signedIn(
  "/releases",
  lazyRouteComponent(() => import("./features/releases/artist-pages.tsx"), "ArtistReleasesPage"),
);
const releaseRoute = signedIn(
  "/releases/$id",
  lazyRouteComponent(() => import("./features/releases/artist-pages.tsx"), "ArtistReleasePage"),
);
const successRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: "/success",
  component: SuccessPage,
  validateSearch: (s: Record<string, unknown>) => ({
    message: typeof s.message === "string" ? s.message : undefined,
  }),
});

// Admin area: its code is a separate chunk, loaded only when an admin opens it.
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  beforeLoad: requireAdmin,
  component: lazyRouteComponent(() => import("./features/admin/admin-layout.tsx"), "AdminLayout"),
});
const admin = <P extends string>(path: P, load: () => Promise<Record<string, unknown>>, name: string) =>
  createRoute({
    getParentRoute: () => adminRoute,
    path,
    component: lazyRouteComponent(load as never, name as never),
  });
// The track lists keep their filters, sort and page in the address (issue 12 §3, decision 0141).
// The staff pages parse their own address (use-staff-track-list.ts, users-page.tsx: a value that
// does not parse falls back to its default there), so the parsers stay in the staff chunks and out of
// the public entry (decision 0266); the router only carries the type.
const staffSearch = <T,>() => (raw: Record<string, unknown>) => raw as T;
const adminTracksRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "tracks",
  validateSearch: staffSearch<TrackListSearch>(),
  component: lazyRouteComponent(() => import("./features/staff-review/queue/admin-tracks-page.tsx"), "AdminTracksPage"),
});
// The users list keeps its search, filters and page in the address the same way (decision 0211).
const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "users",
  validateSearch: staffSearch<UsersListSearch>(),
  component: lazyRouteComponent(() => import("./features/admin/users-page.tsx"), "AdminUsersPage"),
});
const adminChildren = [
  admin("/", () => import("./features/admin/dashboard-page.tsx"), "AdminDashboardPage"),
  adminTracksRoute,
  admin("tracks/edit", () => import("./features/staff-review/edit/admin-track-edit-page.tsx"), "AdminTrackEditPage"),
  admin(
    "tracks/$id/edit",
    () => import("./features/staff-review/edit/admin-track-edit-page.tsx"),
    "AdminTrackEditPage",
  ),
  admin("faq", () => import("./features/admin/faq-page.tsx"), "AdminFaqPage"),
  admin("faq/edit", () => import("./features/admin/faq-edit-page.tsx"), "AdminFaqEditPage"),
  admin("faq/$id/edit", () => import("./features/admin/faq-edit-page.tsx"), "AdminFaqEditPage"),
  admin("slider", () => import("./features/admin/slider-page.tsx"), "AdminSliderPage"),
  admin("slider/edit", () => import("./features/admin/slider-edit-page.tsx"), "AdminSliderEditPage"),
  admin("slider/$id/edit", () => import("./features/admin/slider-edit-page.tsx"), "AdminSliderEditPage"),
  adminUsersRoute,
  admin("users/edit", () => import("./features/admin/user-edit-page.tsx"), "AdminUserEditPage"),
  admin("users/$id/edit", () => import("./features/admin/user-edit-page.tsx"), "AdminUserEditPage"),
  admin("redis", () => import("./features/admin/redis-page.tsx"), "AdminRedisPage"),
  admin("intake", () => import("./features/admin/intake-page.tsx"), "AdminIntakePage"),
  admin("releases", () => import("./features/releases/staff-list-page.tsx"), "AdminReleasesPage"),
  admin("releases/$id", () => import("./features/releases/staff-release-page.tsx"), "AdminReleasePage"),
  admin(
    "decline-templates",
    () => import("./features/staff-review/edit/decline-templates-page.tsx"),
    "AdminDeclineTemplatesPage",
  ),
];

// Moderator area (moderators and admins), also a separate chunk.
const moderatorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/moderator",
  beforeLoad: requireStaff,
  component: lazyRouteComponent(() => import("./features/moderator/moderator-layout.tsx"), "ModeratorLayout"),
});
const mod = <P extends string>(path: P, load: () => Promise<Record<string, unknown>>, name: string) =>
  createRoute({
    getParentRoute: () => moderatorRoute,
    path,
    component: lazyRouteComponent(load as never, name as never),
  });
/** Whether the page has shown a route yet: a typed, bookmarked or reloaded address is the first one. */
const landing = { resolved: false };
const moderatorTracksRoute = createRoute({
  getParentRoute: () => moderatorRoute,
  path: "tracks",
  validateSearch: staffSearch<TrackListSearch>(),
  // A typed or bookmarked /moderator/tracks opens «Новые», oldest first, like the dashboard's and the
  // sidebar's links (issue 31, decision 0276); «All» inside the app stays a bare address.
  beforeLoad: ({ search, cause }) => {
    if (cause !== "enter" || landing.resolved || Object.keys(search).length > 0) return;
    throw redirect({ to: "/moderator/tracks", search: MODERATOR_QUEUE_START as never, replace: true });
  },
  component: lazyRouteComponent(
    () => import("./features/staff-review/queue/moderator-tracks-page.tsx"),
    "ModeratorTracksPage",
  ),
});
const moderatorChildren = [
  mod("/", () => import("./features/moderator/dashboard-page.tsx"), "ModeratorDashboardPage"),
  moderatorTracksRoute,
  mod(
    "tracks/$id/edit",
    () => import("./features/staff-review/edit/moderator-track-edit-page.tsx"),
    "ModeratorTrackEditPage",
  ),
  mod("faq", () => import("./features/moderator/faq-page.tsx"), "ModeratorFaqPage"),
  mod("intake", () => import("./features/moderator/intake-page.tsx"), "ModeratorIntakePage"),
  mod("releases", () => import("./features/releases/staff-list-page.tsx"), "ModeratorReleasesPage"),
  mod("releases/$id", () => import("./features/releases/staff-release-page.tsx"), "ModeratorReleasePage"),
  mod("faq/edit", () => import("./features/moderator/faq-edit-page.tsx"), "ModeratorFaqEditPage"),
  mod("faq/$id/edit", () => import("./features/moderator/faq-edit-page.tsx"), "ModeratorFaqEditPage"),
];

const routeTree = rootRoute.addChildren([
  indexRoute,
  aboutRoute,
  faqRoute,
  privacyRoute,
  errorRoute,
  maintenanceRoute,
  guestLayout.addChildren([loginRoute, callbackRoute]),
  signedInLayout.addChildren([
    profileRoute,
    profileEditRoute,
    processingRoute,
    successRoute,
    releasesRoute,
    releaseRoute,
  ]),
  adminRoute.addChildren(adminChildren),
  moderatorRoute.addChildren(moderatorChildren),
]);

export function createAppRouter(context: RouterContext) {
  const router = createRouter({
    routeTree,
    context,
    defaultPreload: "intent",
    scrollRestoration: false,
    defaultNotFoundComponent: () => <Navigate to="/" replace />,
    defaultErrorComponent: RouteError,
  });
  landing.resolved = false;
  router.subscribe("onResolved", () => {
    landing.resolved = true;
  });
  // Maintenance switched on while a page is open: the next call says so, and the guards, run again
  // with the fresh flag, take the person to the maintenance screen.
  let recheck: Promise<void> | null = null;
  setApiHooks({
    onMaintenance: () => {
      recheck ??= context.queryClient
        .fetchQuery({ ...configQuery, staleTime: 0 })
        .then(() => router.invalidate())
        .catch(() => {})
        .finally(() => (recheck = null));
    },
  });
  return router;
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
