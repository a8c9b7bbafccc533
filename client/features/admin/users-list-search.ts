import { MAX_PAGE, oneOf, text, wholeNumber } from "../../lib/search-params.ts";

/**
 * Where the admin users list stands, kept in the address like the track lists (decision 0141): the
 * search, the status and role filters and the page, so Back, a reload, a shared link and the way back
 * from a user's edit page land on the same rows. `validateSearch` of /admin/users runs this; a value
 * that does not parse falls back to its default on its own. Defaults (no search, every status and
 * role, page 1) are left out, so an untouched list has a bare address. This file is in the public
 * entry chunk (the router imports it), so it holds no texts and no zod.
 */

export const USER_STATUS_FILTERS = ["active", "banned"] as const;
export const USER_ROLE_FILTERS = ["admin", "moderator", "user"] as const;
/** The server's limit on the search text (domain/user.ts). */
const MAX_SEARCH = 200;

export type UsersListSearch = {
  search?: string;
  status?: (typeof USER_STATUS_FILTERS)[number];
  role?: (typeof USER_ROLE_FILTERS)[number];
  page?: number;
};

const searchText = text(MAX_SEARCH);
const status = oneOf(USER_STATUS_FILTERS);
const role = oneOf(USER_ROLE_FILTERS);
const page = wholeNumber((n) => n >= 1 && n <= MAX_PAGE);

/** The address's search as the list reads it, without empty values and defaults. */
export function parseUsersListSearch(raw: unknown): UsersListSearch {
  const input = raw && typeof raw === "object" ? raw as Record<string, unknown> : {};
  const out: UsersListSearch = {};
  const s = searchText(input.search);
  if (s) out.search = s;
  const st = status(input.status);
  if (st) out.status = st;
  const r = role(input.role);
  if (r) out.role = r;
  const p = page(input.page);
  if (p !== undefined && p !== 1) out.page = p;
  return out;
}

/** `validateSearch` of /admin/users. */
export const validateUsersListSearch = (raw: Record<string, unknown>): UsersListSearch => parseUsersListSearch(raw);

// --- The way back from a user's edit page ----------------------------------------------------------

const PLACE_KEY = "adminUsersList";

/**
 * The list's last place, kept for the session (sessionStorage, as the track lists do): the edit
 * page's back link, Cancel and the return after adding a user go there instead of to page 1.
 */
export function rememberUsersListPlace(search: UsersListSearch) {
  try {
    sessionStorage.setItem(PLACE_KEY, JSON.stringify(parseUsersListSearch(search)));
  } catch {
    // Storage refused (private mode, quota): the way back then starts at page 1.
  }
}

export function usersListPlace(): UsersListSearch {
  try {
    return parseUsersListSearch(JSON.parse(sessionStorage.getItem(PLACE_KEY) ?? "{}"));
  } catch {
    return {};
  }
}
