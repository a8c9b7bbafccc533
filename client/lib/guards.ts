import { redirect } from "@tanstack/react-router";
import type { RouterContext } from "./router-context.ts";
import { ApiError } from "./api.ts";
import { stripTokenLink } from "./auth.ts";
import { configQuery } from "./config-query.ts";
import { hasVkLinkStart } from "./oauth.ts";

/**
 * Route guards (spec 2 "Route guards", "Maintenance mode"). They are for the person only: the API
 * checks every permission itself.
 */
type GuardArgs = {
  context: RouterContext;
  location: { pathname: string; href: string; search?: unknown; hash?: string };
};

async function loadUserOrLogin(context: RouterContext) {
  try {
    return await context.auth.ensureUser();
  } catch (err) {
    // No answer, or a failing server, is not a refusal: the tokens stay (decision 0015), so /login
    // would pass the person on to / without a word. The route's error screen says "No response from
    // server" on the page asked for instead, where a retry or a reload tries again (decision 0095).
    if (err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status >= 500)) throw err;
    // A 403 (ban) or any other failure to load the user for a guarded area goes to /login.
    if (err instanceof ApiError || err instanceof Error) throw redirect({ to: "/login" });
    throw err;
  }
}

/**
 * Login entry via address (spec 1 §4) on any page: access_token and refresh_token in the query are
 * stored, the user is fetched and both values leave the address; if that fails, navigation carries
 * on without them. The upload page (its banner), /login and the callback page (their own arrival
 * rules) handle the tokens themselves. A browser signed in as someone else is asked first
 * (`acceptTokenLink`, decision 0202); the question needs the page on screen, so the guard does not
 * wait for the answer then.
 */
export async function signInFromAddress({ context, location }: GuardArgs) {
  const { pathname } = location;
  if (pathname === "/" || pathname === "/login" || pathname.startsWith("/auth/")) return;
  const params = new URLSearchParams(location.href.split("?")[1]?.split("#")[0] ?? "");
  const access = params.get("access_token");
  const refresh = params.get("refresh_token");
  if (!access || !refresh) return;
  const signedIn = context.auth.isAuthenticated;
  const accepted = context.auth.acceptTokenLink(access, refresh).catch(() => {
    // Bad or refused tokens: the store has already dropped them (a ban opens its modal).
  });
  if (!signedIn) await accepted;
  const search = { ...(location.search as Record<string, unknown> | undefined) };
  delete search.access_token;
  delete search.refresh_token;
  throw redirect({ to: pathname as never, search: search as never, hash: location.hash || undefined, replace: true });
}

/**
 * Pages that stay reachable in maintenance mode: the maintenance screen itself, and the sign-in
 * pages, so a signed-out administrator can sign in with VK or Telegram (the provider comes back to
 * /login or /auth/{provider}/callback). Anyone else who signs in there goes on to / and from there to
 * the maintenance screen.
 */
export function openInMaintenance(pathname: string): boolean {
  return pathname === "/maintenance" || pathname === "/login" || pathname.startsWith("/auth/");
}

/** The root route's guard: address tokens first (out of the address bar at once), then maintenance mode. */
export async function rootGuard(args: GuardArgs) {
  // The home page, /login and the callback page read their arrival from the address and clean it
  // themselves as they open.
  const path = args.location.pathname;
  if (path !== "/" && path !== "/login" && !path.startsWith("/auth/")) stripTokenLink();
  await signInFromAddress(args);
  const { context, location } = args;
  if (openInMaintenance(location.pathname)) return;
  let maintenance = false;
  try {
    maintenance = (await context.queryClient.ensureQueryData(configQuery)).maintenance;
  } catch {
    return;
  }
  if (!maintenance) return;
  const params = new URLSearchParams(location.href.split("?")[1]?.split("#")[0] ?? "");
  const access = params.get("access_token");
  const refresh = params.get("refresh_token");
  // A session already here is not replaced unasked (decision 0202).
  const signedIn = context.auth.isAuthenticated;
  if (access && refresh && !signedIn) context.auth.setTokens(access, refresh);
  if (context.auth.isAuthenticated) {
    try {
      const user = await context.auth.ensureUser();
      if (user?.is_admin) return;
    } catch {
      // Failing to load the user during maintenance sends them to the maintenance page.
    }
  }
  // Signed in as someone else: the question opens on the maintenance page.
  if (access && refresh && signedIn) context.auth.acceptTokenLink(access, refresh).catch(() => {});
  throw redirect({ to: "/maintenance" });
}

/**
 * Set by the sign-in callback page while it completes a sign-in: cleaning the address re-runs the
 * guards, and the page that has just signed the person in must stay to show its success state.
 */
let completingSignIn = false;
export function setCompletingSignIn(on: boolean) {
  completingSignIn = on;
}

/** Guest-only pages send a signed-in user home; a sign-in address's tokens go along to be used there. */
export function guestOnly({ context, location }: GuardArgs) {
  if (!context.auth.isAuthenticated) return;
  if (completingSignIn && location.pathname.startsWith("/auth/")) return;
  const params = new URLSearchParams(location.href.split("?")[1]?.split("#")[0] ?? "");
  // VK comes back to /login for the profile's VK link too (decision 0204): that page passes it on.
  const state = params.get("state");
  if (location.pathname === "/login" && params.get("code") && state && hasVkLinkStart(state)) return;
  const access = params.get("access_token");
  const refresh = params.get("refresh_token");
  if (access && refresh && location.pathname === "/login") {
    // The home page asks before replacing this session (decision 0202); this entry keeps no tokens.
    stripTokenLink();
    throw redirect({ to: "/", search: { access_token: access, refresh_token: refresh }, replace: true });
  }
  throw redirect({ to: "/" });
}

export async function requireSignedIn({ context }: GuardArgs) {
  if (!context.auth.isAuthenticated) throw redirect({ to: "/login" });
  await loadUserOrLogin(context);
}

export async function requireAdmin({ context }: GuardArgs) {
  if (!context.auth.isAuthenticated) throw redirect({ to: "/login" });
  const user = await loadUserOrLogin(context);
  if (!user) throw redirect({ to: "/login" });
  if (!user.is_admin) throw redirect({ to: "/" });
}

export async function requireStaff({ context }: GuardArgs) {
  if (!context.auth.isAuthenticated) throw redirect({ to: "/login" });
  const user = await loadUserOrLogin(context);
  if (!user) throw redirect({ to: "/login" });
  if (!user.is_admin && !user.is_moderator) throw redirect({ to: "/" });
}
