// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { AdminTrackEditPage } from "./admin-track-edit-page.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const track = {
  id: 4,
  filename: "A - B.mp3",
  user_id: 3,
  guest_username: null,
  user_info: { id: 3, username: "artist", name: "Артист" },
  upload_date: "2024-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: true,
  status: "completed",
};

/** The text of the elements a control names with aria-describedby (what a screen reader adds to its name). */
const description = (el: HTMLElement) =>
  (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`).join(" ");

describe("admin track edit page", () => {
  it("adds a track, shows the success text and returns to the list 1.5 s later", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const posts: Array<Record<string, unknown>> = [];
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/admin/tracks": async (req) => {
          posts.push(await req.json());
          return Response.json({ success: true, track: { ...track, id: 9 } }, { status: 201 });
        },
      }),
    );
    const { router } = renderPage("/admin/tracks/edit", AdminTrackEditPage);
    await flush();
    fireEvent.click(screen.getByRole("button", { name: "Создать трек" }));
    // Nothing is sent while the filename and directions are missing.
    expect(posts).toHaveLength(0);
    expect(screen.getByText("Выберите хотя бы одно направление")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Имя файла"), { target: { value: "New - Track.mp3" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    fireEvent.change(screen.getByLabelText("ID пользователя"), { target: { value: "12a" } });
    expect(screen.getByText("ID пользователя должен быть числом")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("ID пользователя"), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("Имя гостя"), { target: { value: "Гость" } });
    fireEvent.click(screen.getByRole("button", { name: "Создать трек" }));
    await flush();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      filename: "New - Track.mp3",
      user_id: null,
      guest_username: "Гость",
      directions: "show_neurogon",
      downloaded: false,
    });
    expect(screen.getByText("Трек успешно добавлен")).toBeTruthy();
    await flush(1400);
    expect(router.state.location.pathname).toBe("/admin/tracks/edit");
    await flush(200);
    expect(router.state.location.pathname).toBe("/admin/tracks");
  });

  it("updates a track and stays; the filename cannot be changed and the guest name is off with a user", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const puts: Array<Record<string, unknown>> = [];
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/admin/tracks/4": async (req) => {
          if (req.method === "PUT") {
            puts.push(await req.json());
            return { success: true, track: { ...track, downloaded: false } };
          }
          return { success: true, track };
        },
      }),
    );
    const { router } = renderPage("/admin/tracks/4/edit", AdminTrackEditPage, { routePath: "/admin/tracks/$id/edit" });
    await flush();
    await flush();
    const filename = screen.getByLabelText("Имя файла") as HTMLInputElement;
    expect(filename.value).toBe("A - B.mp3");
    expect(filename.disabled).toBe(true);
    expect(screen.getByText("Имя файла нельзя изменить")).toBeTruthy();
    expect(description(filename)).toBe("Имя файла нельзя изменить");
    expect(description(screen.getByLabelText("Имя гостя"))).toBe("Недоступно, когда указан ID пользователя");
    expect((screen.getByLabelText("Имя гостя") as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText("Дата загрузки") as HTMLInputElement).disabled).toBe(true);
    // Лейбл Нейропанк conflicts with Лейбл Костер.
    expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Скачан" }));
    fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    await flush();
    expect(puts[0]).toMatchObject({ filename: "A - B.mp3", user_id: 3, directions: "label_koster", downloaded: false });
    expect(screen.getByText("Трек успешно сохранен")).toBeTruthy();
    await flush(3000);
    expect(router.state.location.pathname).toBe("/admin/tracks/4/edit");
  });

  it("reads each field's hint or error as its description, and an error marks it invalid while typing keeps focus", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal("fetch", fakeFetch({}));
    renderPage("/admin/tracks/edit", AdminTrackEditPage);
    await flush();
    const filename = screen.getByLabelText("Имя файла");
    const userId = screen.getByLabelText("ID пользователя");
    const guest = screen.getByLabelText("Имя гостя");
    expect(description(filename)).toBe("");
    expect(description(userId)).toBe("Оставьте пустым для гостевого трека");
    expect(userId.getAttribute("aria-invalid")).toBe("false");
    expect(description(guest)).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Создать трек" }));
    expect(filename.getAttribute("aria-invalid")).toBe("true");
    expect(description(filename)).toBe("Укажите имя файла");
    // The error comes and goes as the person types: the same control keeps focus throughout.
    userId.focus();
    fireEvent.change(userId, { target: { value: "12a" } });
    expect(screen.getByLabelText("ID пользователя")).toBe(userId);
    expect(document.activeElement).toBe(userId);
    expect(userId.getAttribute("aria-invalid")).toBe("true");
    expect(description(userId)).toBe("ID пользователя должен быть числом");
    fireEvent.change(userId, { target: { value: "12" } });
    expect(document.activeElement).toBe(userId);
    expect(userId.getAttribute("aria-invalid")).toBe("false");
    expect(description(userId)).toBe("Оставьте пустым для гостевого трека");
    expect(description(guest)).toBe("Недоступно, когда указан ID пользователя");
    fireEvent.change(filename, { target: { value: "A.mp3" } });
    expect(filename.getAttribute("aria-invalid")).toBe("false");
    expect(description(filename)).toBe("");
  });
});
