// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import type { User } from "../../lib/auth.ts";
import { ProfileEditPage } from "./profile-edit-page.tsx";

const baseUser: User = {
  id: 1,
  username: "artist",
  email: null,
  first_name: "Иван",
  last_name: "Петров",
  avatar: null,
  city: "Москва",
  birth_date: "1990-05-17",
  bio: "",
  favorite_dnb_genre: null,
  vk_id: null,
  telegram_id: null,
  phone_number: null,
  is_admin: false,
  is_moderator: false,
  moderator_categories: "",
  is_banned: false,
  ban_reason: null,
};

let sent: FormData | null = null;
let user: User = { ...baseUser };

beforeEach(async () => {
  localStorage.clear();
  sent = null;
  user = { ...baseUser };
  localStorage.setItem("accessToken", "a");
  localStorage.setItem("refreshToken", "r");
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user }),
      "/api/profile/update": async (req) => {
        sent = await req.formData();
        const bio = String(sent.get("bio"));
        if (bio === "сервер против") {
          return Response.json({ success: false, error: "Выберите жанр из списка" }, { status: 400 });
        }
        user = { ...user, bio, avatar: sent.get("avatar") ? "/static/storage/avatars/new.png" : user.avatar };
        return { success: true, message: "Профиль успешно обновлен", user };
      },
    }),
  );
  auth.setTokens("a", "r");
  await auth.loadUser();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("profile edit page", () => {
  it("fills the form from the profile and counts the biography", async () => {
    renderPage("/profile/edit", ProfileEditPage);
    const first = await screen.findByLabelText("Имя") as HTMLInputElement;
    expect(first.value).toBe("Иван");
    expect((screen.getByLabelText("Дата рождения") as HTMLInputElement).value).toBe("1990-05-17");
    expect(screen.getByText("0/500")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("О себе"), { target: { value: "ж".repeat(501) } });
    expect(screen.getByText("501/500")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Сохранить" }) as HTMLButtonElement).disabled).toBe(true);
    const genres = screen.getByLabelText("Любимый жанр") as HTMLSelectElement;
    expect(genres.options).toHaveLength(18);
    expect(genres.options[0].value).toBe("");
  });

  it("refuses a large or non-image avatar before sending anything", async () => {
    renderPage("/profile/edit", ProfileEditPage);
    const input = await screen.findByLabelText("Аватар") as HTMLInputElement;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.jpg", { type: "image/jpeg" });
    Object.defineProperty(input, "files", { value: [big], configurable: true });
    fireEvent.change(input);
    expect(screen.getByText("Файл слишком большой. Максимальный размер: 5 МБ")).toBeTruthy();
    const gif = new File(["GIF89a"], "a.gif", { type: "image/gif" });
    Object.defineProperty(input, "files", { value: [gif], configurable: true });
    fireEvent.change(input);
    expect(screen.getByText("Неподдерживаемый формат файла. Допустимые форматы: JPG, PNG")).toBeTruthy();
  });

  it("sends the form with the avatar and shows the saved message for 3 s", async () => {
    renderPage("/profile/edit", ProfileEditPage);
    const input = await screen.findByLabelText("Аватар") as HTMLInputElement;
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "me.png", { type: "image/png" });
    Object.defineProperty(input, "files", { value: [png], configurable: true });
    fireEvent.change(input);
    fireEvent.change(screen.getByLabelText("О себе"), { target: { value: "Нейрофанк" } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    });
    await screen.findByText("Профиль успешно обновлен");
    // Shown right above the buttons, where a person who just pressed Сохранить is looking.
    const saved = screen.getByTestId("profile-saved");
    const actions = screen.getByRole("button", { name: "Сохранить" }).parentElement;
    expect(saved.closest("form")).not.toBeNull();
    expect(saved.nextElementSibling).toBe(actions);
    expect(sent!.get("bio")).toBe("Нейрофанк");
    expect(sent!.get("first_name")).toBe("Иван");
    expect((sent!.get("avatar") as File).name).toBe("me.png");
    expect(auth.user?.avatar).toBe("/static/storage/avatars/new.png");
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByText("Профиль успешно обновлен")).toBeNull();
  });

  it("shows the server's reason when it refuses", async () => {
    renderPage("/profile/edit", ProfileEditPage);
    fireEvent.change(await screen.findByLabelText("О себе"), { target: { value: "сервер против" } });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    });
    expect(await screen.findByText("Выберите жанр из списка")).toBeTruthy();
  });
});
