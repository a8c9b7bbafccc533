// @vitest-environment happy-dom
import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { auth } from "../../lib/auth.ts";
import { AdminUserEditPage } from "./user-edit-page.tsx";

const base = {
  id: 7,
  username: "modder",
  email: "m@example.com",
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
  is_moderator: true,
  moderator_categories: "label_koster",
  is_banned: false,
  ban_reason: null,
};

const box = (name: string | RegExp) => screen.getByRole("checkbox", { name }) as HTMLInputElement;

useSignedInTestSession();

function setup(user: Record<string, unknown>, me = { id: 1, is_admin: true }) {
  const puts: Array<Record<string, unknown>> = [];
  const fetch = fakeFetch({
    "/api/auth/me": () => ({ success: true, user: { ...base, ...me, username: "boss" } }),
    [`/api/admin/users/${user.id}`]: async (req) => {
      if (req.method === "PUT") {
        const body = await req.json();
        puts.push(body);
        return { success: true, user: { ...user, ...body } };
      }
      return { success: true, user };
    },
  });
  vi.stubGlobal("fetch", fetch);
  return { puts };
}

/** The signed-in admin opens user `id`'s edit page and its data arrives. */
async function openEdit(id: number) {
  await act(() => auth.loadUser());
  renderPage(`/admin/users/${id}/edit`, AdminUserEditPage, { routePath: "/admin/users/$id/edit" });
  await settle(1);
  await settle(1);
}

describe("admin user edit page", () => {
  it("unchecking moderator clears the categories and checking it again restores them", async () => {
    setup(base);
    await openEdit(base.id);
    expect(box("Лейбл Костер").checked).toBe(true);
    fireEvent.click(box("Модератор"));
    expect(screen.queryByRole("checkbox", { name: "Лейбл Костер" })).toBeNull();
    fireEvent.click(box("Модератор"));
    expect(box("Лейбл Костер").checked).toBe(true);
    fireEvent.click(box("Все категории (*)"));
    expect(box("Лейбл Костер").checked).toBe(false);
    expect(box("Все категории (*)").checked).toBe(true);
  });

  it("a field's error is read out as its description, not as part of its name, and nothing is saved", async () => {
    const { puts } = setup(base);
    await openEdit(base.id);
    const bio = screen.getByRole("textbox", { name: "О себе" });
    fireEvent.change(bio, { target: { value: "ж".repeat(501) } });
    fireEvent.change(screen.getByRole("textbox", { name: "Email" }), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    await settle(1);
    for (const name of ["О себе", "Email"]) {
      const field = screen.getByRole("textbox", { name });
      expect(field.getAttribute("aria-invalid")).toBe("true");
      const described = document.getElementById(field.getAttribute("aria-describedby") ?? "");
      expect(described?.textContent, name).toBeTruthy();
    }
    expect(puts).toEqual([]);
  });

  it("asks before banning, and saves the three flags only after the confirmation", async () => {
    const { puts } = setup(base);
    await openEdit(base.id);
    fireEvent.click(box("Заблокирован"));
    fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    expect(screen.getByText("Вы собираетесь заблокировать пользователя modder. Продолжить?")).toBeTruthy();
    expect(screen.getByText("Пользователь не сможет авторизоваться и загружать треки.")).toBeTruthy();
    expect(puts).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Продолжить" }));
    await settle(1);
    await settle(1);
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({
      is_banned: true,
      is_admin: false,
      is_moderator: true,
      moderator_categories: "label_koster",
    });
    expect(puts[0]).not.toHaveProperty("first_name");
    expect(screen.getByText("Пользователь успешно сохранен")).toBeTruthy();
  });

  it("on the admin's own account the admin and ban boxes are locked with the reasons", async () => {
    const me = { ...base, id: 1, username: "boss", is_admin: true, is_moderator: false, moderator_categories: "" };
    setup(me, { id: 1, is_admin: true });
    await openEdit(1);
    expect(box("Администратор").disabled).toBe(true);
    expect(box("Заблокирован").disabled).toBe(true);
    expect(screen.getByText("Вы не можете снять с себя права администратора")).toBeTruthy();
    expect(screen.getByText("Вы не можете заблокировать себя")).toBeTruthy();
  });

  it("ticking admin clears the ban and locks it with 'Нельзя заблокировать администратора'", async () => {
    setup({ ...base, is_banned: true });
    await openEdit(base.id);
    expect(box("Заблокирован").checked).toBe(true);
    fireEvent.click(box("Администратор"));
    expect(box("Заблокирован").checked).toBe(false);
    expect(box("Заблокирован").disabled).toBe(true);
    expect(screen.getByText("Нельзя заблокировать администратора")).toBeTruthy();
  });
});
