import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Navigate,
  redirect,
  useNavigate,
} from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { UploadForm } from "./features/upload/upload-form.tsx";
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

// Staff never see a hidden character raw (decision 0305): the panels' answers are written out by a
// staff module, loaded with the first of them (decision 0432).
setApiHooks({
  staffAnswer: (body) => import("./features/staff-review/shown-text.ts").then((m) => m.withHiddenCharsShown(body)),
});

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
// Issue 35: a show's aired episodes, public; its own chunk, so the entry stays as light as before.
const showRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/shows/$direction",
  component: lazyRouteComponent(() => import("./features/episodes/show-page.tsx"), "ShowPage"),
});
const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/error",
  component: ErrorPage,
  validateSearch: (s: Record<string, unknown>) => ({
    message: typeof s.message === "string" ? s.message : undefined,
  }),
});
const maintenanceRoute = route("/maintenance", MaintenancePage);
// The Telegram Mini App (issue 36): the artist's history (their tracks, places in the queues, the
// label's comments) and the upload form inside Telegram's web view; its page and the history load
// as their own chunks.
const MiniAppPage = lazy(() =>
  import("./features/mini-app/mini-app-page.tsx").then((m) => ({ default: m.MiniAppPage }))
);
const MiniAppHistory = lazy(() =>
  import("./features/profile/submission-history.tsx").then((m) => ({ default: m.SubmissionHistory }))
);
function MiniAppRoute() {
  const navigate = useNavigate();
  const { data: config } = useQuery(configQuery);
  return (
    <Suspense fallback={null}>
      <MiniAppPage
        tracks={<MiniAppHistory enabled />}
        upload={(onSent) => (
          <UploadForm
            signedIn
            // Sent: back to the list, where the new tracks show as processing.
            onNavigate={(to) => (to === "/processing" ? onSent() : navigate({ to }))}
            intake={config?.intake}
          />
        )}
      />
    </Suspense>
  );
}
const miniAppRoute = route("/tg", MiniAppRoute);

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

// The staff pages: each is a chunk of its own, named in its feature's page list (decision 0433), so
// the public entry carries one import per list, not one per page.
type PageList = Record<string, () => Promise<Record<string, unknown>>>;
const adminPages = () => import("./features/admin/pages.ts");
const moderatorPages = () => import("./features/moderator/pages.ts");
const reviewPages = () => import("./features/staff-review/pages.ts");
const episodePages = () => import("./features/episodes/staff-pages.ts");
const releasePages = () => import("./features/releases/staff-pages.ts");
const staffPage = <L extends PageList>(pages: () => Promise<{ PAGES: L }>, name: keyof L & string) =>
  lazyRouteComponent(() => pages().then((m) => m.PAGES[name]()), name as never);

// Admin area: its code is a separate chunk, loaded only when an admin opens it.
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  beforeLoad: requireAdmin,
  component: staffPage(adminPages, "AdminLayout"),
});
const admin = <P extends string>(path: P, component: ReturnType<typeof lazyRouteComponent>) =>
  createRoute({ getParentRoute: () => adminRoute, path, component });
// The track lists keep their filters, sort and page in the address (issue 12 §3, decision 0141).
// The staff pages parse their own address (use-staff-track-list.ts, users-page.tsx: a value that
// does not parse falls back to its default there), so the parsers stay in the staff chunks and out of
// the public entry (decision 0266); the router only carries the type.
const staffSearch = <T,>() => (raw: Record<string, unknown>) => raw as T;
const adminTracksRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "tracks",
  validateSearch: staffSearch<TrackListSearch>(),
  component: staffPage(reviewPages, "AdminTracksPage"),
});
// The users list keeps its search, filters and page in the address the same way (decision 0211).
const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "users",
  validateSearch: staffSearch<UsersListSearch>(),
  component: staffPage(adminPages, "AdminUsersPage"),
});
const adminChildren = [
  admin("/", staffPage(adminPages, "AdminDashboardPage")),
  adminTracksRoute,
  admin("tracks/edit", staffPage(reviewPages, "AdminTrackEditPage")),
  admin("tracks/$id/edit", staffPage(reviewPages, "AdminTrackEditPage")),
  admin("faq", staffPage(adminPages, "AdminFaqPage")),
  admin("faq/edit", staffPage(adminPages, "AdminFaqEditPage")),
  admin("faq/$id/edit", staffPage(adminPages, "AdminFaqEditPage")),
  admin("slider", staffPage(adminPages, "AdminSliderPage")),
  admin("slider/edit", staffPage(adminPages, "AdminSliderEditPage")),
  admin("slider/$id/edit", staffPage(adminPages, "AdminSliderEditPage")),
  adminUsersRoute,
  admin("users/edit", staffPage(adminPages, "AdminUserEditPage")),
  admin("users/$id/edit", staffPage(adminPages, "AdminUserEditPage")),
  admin("redis", staffPage(adminPages, "AdminRedisPage")),
  admin("episodes", staffPage(episodePages, "AdminEpisodesPage")),
  admin("episodes/$id", staffPage(episodePages, "AdminEpisodePage")),
  admin("intake", staffPage(adminPages, "AdminIntakePage")),
  admin("releases", staffPage(releasePages, "AdminReleasesPage")),
  admin("releases/$id", staffPage(releasePages, "AdminReleasePage")),
  admin("decline-templates", staffPage(reviewPages, "AdminDeclineTemplatesPage")),
];

// Moderator area (moderators and admins), also a separate chunk.
const moderatorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/moderator",
  beforeLoad: requireStaff,
  component: staffPage(moderatorPages, "ModeratorLayout"),
});
const mod = <P extends string>(path: P, component: ReturnType<typeof lazyRouteComponent>) =>
  createRoute({ getParentRoute: () => moderatorRoute, path, component });
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
  component: staffPage(reviewPages, "ModeratorTracksPage"),
});
const moderatorChildren = [
  mod("/", staffPage(moderatorPages, "ModeratorDashboardPage")),
  moderatorTracksRoute,
  mod("tracks/$id/edit", staffPage(reviewPages, "ModeratorTrackEditPage")),
  mod("faq", staffPage(moderatorPages, "ModeratorFaqPage")),
  mod("intake", staffPage(moderatorPages, "ModeratorIntakePage")),
  mod("episodes", staffPage(episodePages, "ModeratorEpisodesPage")),
  mod("episodes/$id", staffPage(episodePages, "ModeratorEpisodePage")),
  mod("releases", staffPage(releasePages, "ModeratorReleasesPage")),
  mod("releases/$id", staffPage(releasePages, "ModeratorReleasePage")),
  mod("faq/edit", staffPage(moderatorPages, "ModeratorFaqEditPage")),
  mod("faq/$id/edit", staffPage(moderatorPages, "ModeratorFaqEditPage")),
];

const routeTree = rootRoute.addChildren([
  indexRoute,
  aboutRoute,
  faqRoute,
  privacyRoute,
  showRoute,
  errorRoute,
  maintenanceRoute,
  miniAppRoute,
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
