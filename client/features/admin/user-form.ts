import { type Direction, DIRECTIONS } from "../../../domain/directions.ts";
import { parseCategories } from "../../../domain/staff-directions.ts";
import { bioTooLong, PROFILE_TEXTS } from "../../../domain/profile.ts";
import { emailProblem, formatCategories, userFlagsProblem, usernameProblem } from "../../../domain/user.ts";
import type { AdminUser } from "./users-api.ts";

/**
 * The admin user form's state and payloads (spec 2 §4 "User", §5 "User"), kept apart from the screen
 * so they can be tested one by one. The rules and texts are domain/user.ts's, which the server
 * applies again.
 */

export interface UserFormState {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  is_banned: boolean;
  is_admin: boolean;
  is_moderator: boolean;
  /** `*` = all categories. */
  categories: Direction[] | "*";
  vk_id: string;
  telegram_id: string;
  telegram_hash: string;
  birth_date: string;
  city: string;
  favorite_dnb_genre: string;
  bio: string;
}

export const TEXT_FIELDS = [
  "username",
  "email",
  "first_name",
  "last_name",
  "phone_number",
  "vk_id",
  "telegram_id",
  "telegram_hash",
  "birth_date",
  "city",
  "favorite_dnb_genre",
  "bio",
] as const;

export function emptyUserForm(): UserFormState {
  return {
    username: "",
    email: "",
    first_name: "",
    last_name: "",
    phone_number: "",
    is_banned: false,
    is_admin: false,
    is_moderator: false,
    categories: [],
    vk_id: "",
    telegram_id: "",
    telegram_hash: "",
    birth_date: "",
    city: "",
    favorite_dnb_genre: "",
    bio: "",
  };
}

export function userToForm(u: AdminUser): UserFormState {
  const form = emptyUserForm();
  for (const k of TEXT_FIELDS) form[k] = (u[k as keyof AdminUser] as string | null | undefined) ?? "";
  form.is_admin = Boolean(u.is_admin);
  form.is_moderator = Boolean(u.is_moderator);
  form.is_banned = Boolean(u.is_banned);
  form.categories = u.is_moderator ? parseCategories(u.moderator_categories) : [];
  return form;
}

/** Choosing admin clears the ban: admins cannot be banned. */
export function setAdmin(state: UserFormState, checked: boolean): UserFormState {
  return { ...state, is_admin: checked, is_banned: checked ? false : state.is_banned };
}

export function setBanned(state: UserFormState, checked: boolean): UserFormState {
  if (checked && state.is_admin) return state;
  return { ...state, is_banned: checked };
}

/**
 * Unchecking moderator clears the categories; checking it again brings back `saved` (the categories
 * the user had, or those chosen before unchecking).
 */
export function setModerator(state: UserFormState, checked: boolean, saved: Direction[] | "*"): UserFormState {
  return { ...state, is_moderator: checked, categories: checked ? saved : [] };
}

/** "All categories" clears the single choices and stores `*`; unchecking it leaves none. */
export function setAllCategories(state: UserFormState, checked: boolean): UserFormState {
  return { ...state, categories: checked ? "*" : [] };
}

export function toggleCategory(state: UserFormState, code: Direction): UserFormState {
  const current = state.categories === "*" ? [] : state.categories;
  const set = new Set(current);
  set.has(code) ? set.delete(code) : set.add(code);
  return { ...state, categories: DIRECTIONS.filter((d) => set.has(d)) };
}

export function categoriesValue(state: UserFormState): string {
  return state.is_moderator ? formatCategories(state.categories) : "";
}

export interface UserFormErrors {
  username?: string;
  email?: string;
  bio?: string;
  /** Self-protection and ban rules. */
  general?: string;
}

/** `selfEdit`: the admin is editing their own account. */
export function validateUserForm(state: UserFormState, selfEdit = false): UserFormErrors {
  const errors: UserFormErrors = {};
  const username = usernameProblem(state.username);
  if (username) errors.username = username;
  const email = emailProblem(state.email);
  if (email) errors.email = email;
  // The person's own form allows 500 characters (spec 1 §9); an admin's edit holds to the same.
  if (bioTooLong(state.bio.trim())) errors.bio = PROFILE_TEXTS.bioTooLong;
  const general = userFlagsProblem({ self: selfEdit, admin: state.is_admin, banned: state.is_banned });
  if (general) errors.general = general;
  return errors;
}

export const hasErrors = (e: UserFormErrors) => Boolean(e.username || e.email || e.bio || e.general);

/** Create: every field is sent; empty optional values as null. */
export function buildCreatePayload(state: UserFormState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TEXT_FIELDS) {
    const v = state[k].trim();
    out[k] = k === "username" ? v : v === "" ? null : v;
  }
  out.is_admin = state.is_admin;
  out.is_moderator = state.is_moderator;
  out.is_banned = state.is_admin ? false : state.is_banned;
  out.moderator_categories = categoriesValue(state);
  return out;
}

/**
 * Edit: empty fields are left out, the three flags are always sent, and the categories are sent
 * (empty when the user is not a moderator).
 */
export function buildUpdatePayload(state: UserFormState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TEXT_FIELDS) {
    const v = state[k].trim();
    if (v !== "") out[k] = v;
  }
  out.is_admin = state.is_admin;
  out.is_moderator = state.is_moderator;
  out.is_banned = state.is_admin ? false : state.is_banned;
  out.moderator_categories = categoriesValue(state);
  return out;
}

/** What the save must confirm first: banning someone, or taking admin rights away. */
export function confirmationsNeeded(original: UserFormState | null, state: UserFormState): Array<"ban" | "demote"> {
  if (!original) return [];
  const out: Array<"ban" | "demote"> = [];
  if (!original.is_banned && state.is_banned) out.push("ban");
  if (original.is_admin && !state.is_admin) out.push("demote");
  return out;
}
