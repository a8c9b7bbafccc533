// @vitest-environment happy-dom
import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { USERS_SEARCH_DEBOUNCE_MS } from "./users-page.tsx";
import { parseUsersListSearch, usersListPlace } from "./users-list-search.ts";

/**
 * The admin users list keeps its search, filters and page in the address (decision 0211), like the
 * track lists (0141): a page opened with an address shows that list, and a filter change writes it.
 */

const user = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  username: `user${id}`,
  email: `u${id}@example.com`,
  first_name: null,
  last_name: null,
  avatar: null,
  city: null,
  birth_date: null,
  bio: null,
  favorite_dnb_genre: null,
  vk_id: null,
  telegram_id: null,
  telegram_hash: null,
  phone_number: null,
  is_admin: false,
  is_moderator: false,
  moderator_categories: "",
  is_banned: false,
  ban_reason: null,
  ...extra,
});

/** 25 users: 1–3 moderators (2 of them banned), 4 an admin, the rest artists. */
const ALL = Array.from({ length: 25 }, (_, i) => {
  const id = i + 1;
  if (id <= 3) return user(id, { username: `mod${id}`, is_moderator: true, is_banned: id !== 1 });
  if (id === 4) return user(id, { username: "boss", is_admin: true });
  return user(id);
});

useSignedInTestSession();

async function show(path: string) {
  const asked: URLSearchParams[] = [];
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user: user(4, { username: "boss", is_admin: true }) }),
      "/api/admin/users": (req) => {
        const q = new URL(req.url).searchParams;
        asked.push(q);
        const search = q.get("search") ?? "";
        const rows = ALL.filter((u) =>
          (!search || u.username.includes(search)) &&
          (q.get("status") !== "banned" || u.is_banned) &&
          (q.get("status") !== "active" || !u.is_banned) &&
          (q.get("role") !== "moderator" || u.is_moderator) &&
          (q.get("role") !== "admin" || u.is_admin)
        );
        const size = Number(q.get("page_size") ?? 10);
        const pages = Math.ceil(rows.length / size);
        const page = Math.min(Number(q.get("page") ?? 1), Math.max(1, pages));
        const users = rows.slice((page - 1) * size, page * size);
        return { success: true, users, total: ALL.length, filtered: rows.length, page, pages, page_size: size };
      },
    }),
  );
  const { AdminUsersPage } = await import("./users-page.tsx");
  const page = renderPage(path, AdminUsersPage, { routePath: "/admin/users" });
  await settle();
  return { ...page, asked };
}

const usernames = () => screen.getAllByRole("row").slice(1).map((r) => r.querySelectorAll("td")[1]?.textContent);
const select = (name: string) => screen.getByRole("combobox", { name }) as HTMLSelectElement;
const address = (router: { state: { location: { search: unknown } } }) => router.state.location.search;

describe("admin users list: its place in the address", () => {
  it("a page opened with filters in the address asks for them and shows that list", async () => {
    const { asked } = await show("/admin/users?status=banned&role=moderator&search=mod");
    const last = asked.at(-1)!;
    expect([last.get("status"), last.get("role"), last.get("search"), last.get("page")]).toEqual([
      "banned",
      "moderator",
      "mod",
      "1",
    ]);
    expect(usernames()).toEqual(["mod2", "mod3"]);
    expect(select("Статус").value).toBe("banned");
    expect(select("Роль").value).toBe("moderator");
    expect((screen.getByRole("searchbox", { name: "Поиск" }) as HTMLInputElement).value).toBe("mod");
  });

  it("a page number in the address opens that page", async () => {
    const { asked } = await show("/admin/users?page=3");
    expect(asked.at(-1)!.get("page")).toBe("3");
    expect(usernames()).toEqual(["user21", "user22", "user23", "user24", "user25"]);
  });

  it("a filter change writes the address, back to page 1, and Back returns to the previous list", async () => {
    sessionStorage.clear();
    const { router } = await show("/admin/users?page=2");
    fireEvent.change(select("Роль"), { target: { value: "moderator" } });
    await settle();
    expect(address(router)).toEqual({ role: "moderator" });
    expect(usernames()).toEqual(["mod1", "mod2", "mod3"]);
    fireEvent.change(select("Статус"), { target: { value: "active" } });
    await settle();
    expect(address(router)).toEqual({ role: "moderator", status: "active" });
    expect(usernames()).toEqual(["mod1"]);
    // The edit page's way back (its back link, Cancel, the return after adding) lands here too.
    expect(usersListPlace()).toEqual({ role: "moderator", status: "active" });
    act(() => router.history.back());
    await settle();
    expect(address(router)).toEqual({ role: "moderator" });
    expect(select("Статус").value).toBe("all");
    expect(usernames()).toEqual(["mod1", "mod2", "mod3"]);
    fireEvent.change(select("Роль"), { target: { value: "all" } });
    await settle();
    expect(address(router)).toEqual({});
  });

  it("typing writes the search to the address once it settles, replacing the entry", async () => {
    const { router } = await show("/admin/users?role=moderator");
    const before = router.history.length;
    fireEvent.change(screen.getByRole("searchbox", { name: "Поиск" }), { target: { value: "mod3" } });
    await act(() => new Promise((r) => setTimeout(r, USERS_SEARCH_DEBOUNCE_MS + 50)));
    await settle();
    expect(address(router)).toEqual({ role: "moderator", search: "mod3" });
    expect(router.history.length).toBe(before);
    expect(usernames()).toEqual(["mod3"]);
  });

  it("values that do not parse fall back to their defaults one by one", () => {
    expect(parseUsersListSearch({ status: "nope", role: "admin", page: "-1", search: "" })).toEqual({ role: "admin" });
    expect(parseUsersListSearch({ status: "active", page: 2, search: 42 })).toEqual({
      status: "active",
      page: 2,
      search: "42",
    });
    expect(parseUsersListSearch({ search: "x".repeat(201), page: 1 })).toEqual({});
    expect(parseUsersListSearch(null)).toEqual({});
  });
});

describe("admin users list: adding a user", () => {
  it("a field's error is read out as its description and marks it invalid; a good field has neither", async () => {
    await show("/admin/users");
    fireEvent.click(screen.getByRole("button", { name: "Добавить пользователя" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Email" }), { target: { value: "not-an-email" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Имя" }), { target: { value: "Маша" } });
    fireEvent.click(screen.getByRole("button", { name: "Добавить" }));
    await settle();
    for (const name of ["Имя пользователя", "Email"]) {
      const field = screen.getByRole("textbox", { name });
      expect(field.getAttribute("aria-invalid"), name).toBe("true");
      const described = document.getElementById(field.getAttribute("aria-describedby") ?? "");
      expect(described?.textContent, name).toBeTruthy();
      expect(described?.closest(".st-field")).toBe(field.closest(".st-field"));
    }
    const fine = screen.getByRole("textbox", { name: "Имя" });
    expect(fine.getAttribute("aria-invalid")).toBe("false");
    expect(fine.getAttribute("aria-describedby")).toBeNull();
  });
});
