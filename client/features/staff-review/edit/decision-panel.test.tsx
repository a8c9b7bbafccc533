// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AdminDeclineTemplatesPage } from "./decline-templates-page.tsx";
import { AdminTrackEditPage } from "./admin-track-edit-page.tsx";
import { auth } from "../../../lib/auth.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";

const admin = {
  id: 1,
  username: "admin",
  is_admin: true,
  is_moderator: false,
  moderator_categories: "",
  is_banned: false,
};
const person = { id: 1, username: "admin", name: "Админ" };

const track = {
  id: 5,
  filename: "Artist - Title.mp3",
  user_id: 3,
  guest_username: null,
  user_info: { id: 3, username: "artist", name: "Иван" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster,show_neurogon",
  downloaded: false,
  status: "completed",
  decisions: [
    {
      direction: "label_koster",
      status: "listened",
      note: null,
      message: null,
      decided_by: person,
      decided_at: "2025-03-06T10:00:00.000Z",
      revision: 1,
    },
    {
      direction: "show_neurogon",
      status: "new",
      note: null,
      message: null,
      decided_by: null,
      decided_at: null,
      revision: 0,
    },
  ],
  decision_history: [
    {
      id: 1,
      direction: "label_koster",
      from: "new",
      to: "listened",
      note: null,
      message: null,
      decided_by: person,
      decided_at: "2025-03-06T10:00:00.000Z",
    },
  ],
};

const templates = [
  { id: 4, title: "Не подходит по стилю", text: "Спасибо, но трек не подходит по стилю.", outcome: "declined" },
  { id: 9, title: "Сведение", text: "Доработайте сведение и присылайте снова.", outcome: "declined" },
  // Another outcome's template is not offered by «Отклонить с шаблоном» (decision 0224).
  { id: 12, title: "Берём", text: "Берём, {artist}!", outcome: "accepted" },
];

useSignedInTestSession();
afterEach(cleanup);

type Answer = (body: Record<string, unknown>) => Response | Record<string, unknown>;

/** The server's answer to a PUT when the test gives none: the decision as sent, one revision on. */
const echo: Answer = (body) => ({
  success: true,
  decision: { ...track.decisions[0], status: body.status ?? "listened", revision: Number(body.revision) + 1 },
});

async function setupTrack(answer: Answer = echo, shown: Record<string, unknown> = track) {
  const puts: Array<{ path: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user: admin }),
      "/api/admin/tracks/5": () => ({ success: true, track: shown }),
      "/api/admin/decline-templates": () => ({ success: true, templates }),
      "/api/admin/tracks/5/decisions/label_koster": async (req) => {
        const body = await req.json();
        puts.push({ path: new URL(req.url).pathname, body });
        return answer(body);
      },
    }),
  );
  await act(() => auth.loadUser());
  renderPage("/admin/tracks/5/edit", AdminTrackEditPage, { routePath: "/admin/tracks/$id/edit" });
  await settle(6);
  return puts;
}

/** The text of the elements a control names with aria-describedby (what a screen reader adds to its name). */
const description = (el: HTMLElement) =>
  (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`).join(" ");

describe("decision panel", () => {
  it("shows each direction's state in Russian and the decision history", async () => {
    await setupTrack();
    const koster = await screen.findByTestId("decision-label_koster");
    expect(within(koster).getByTestId("review-state").textContent).toBe("Прослушан");
    expect(within(screen.getByTestId("decision-show_neurogon")).getByTestId("review-state").textContent).toBe("Новый");
    const rows = screen.getByRole("table", { name: "История решений" }).querySelectorAll("tbody tr");
    expect(rows).toHaveLength(1);
    expect(rows[0].textContent).toContain("Админ");
    expect(rows[0].textContent).toContain("Новый");
    expect(rows[0].textContent).toContain("Прослушан");
  });

  it("flags a pair past its promise and marks an automatic decline in the history (issue 25)", async () => {
    await setupTrack(echo, {
      ...track,
      decisions: [
        { ...track.decisions[0], respond_by: "2025-03-19T11:07:00.000Z", overdue: true },
        {
          ...track.decisions[1],
          status: "declined",
          decided_at: "2025-04-02T11:07:00.000Z",
          revision: 1,
          respond_by: null,
          overdue: false,
        },
      ],
      decision_history: [
        ...track.decision_history.map((h) => ({ ...h, automatic: false })),
        {
          id: 2,
          direction: "show_neurogon",
          from: "new",
          to: "declined",
          note: null,
          message: "Не успели послушать",
          decided_by: null,
          decided_at: "2025-04-02T11:07:00.000Z",
          automatic: true,
        },
      ],
    });
    const koster = await screen.findByTestId("decision-label_koster");
    expect(within(koster).getByTestId("pair-overdue").textContent).toBe("Просрочен");
    expect(within(koster).getByTestId("respond-by").textContent).toMatch(/^Ответ обещан до \d\d\.\d\d\.2025$/);
    const show = screen.getByTestId("decision-show_neurogon");
    expect(within(show).queryByTestId("pair-overdue")).toBeNull();
    expect(within(show).queryByTestId("respond-by")).toBeNull();
    const rows = screen.getByRole("table", { name: "История решений" }).querySelectorAll("tbody tr");
    expect(rows).toHaveLength(2);
    expect(rows[0].querySelector("[data-testid=history-automatic]")).toBeNull();
    expect(rows[0].querySelector("td[data-label=Кто]")?.textContent).toBe("Админ");
    expect(rows[1].querySelector("td[data-label=Кто]")?.textContent).toBe("Автоматически");
  });

  it("shows each colleague's listening as «прослушано 1:20 из 5:10», the most heard first", async () => {
    await setupTrack(echo, {
      ...track,
      duration: 310_000,
      listens: [
        { user: { id: 2, username: "kolya", name: "Николай Петров" }, heard_s: 80.9 },
        { user: person, heard_s: 5.2 },
      ],
    });
    const group = await screen.findByRole("group", { name: "Прослушивания" });
    const lines = within(group).getAllByTestId("staff-listen").map((li) => li.textContent);
    expect(lines).toEqual(["Николай Петров — прослушано 1:20 из 5:10", "Админ — прослушано 0:05 из 5:10"]);
  });

  it("says nobody listened yet when no colleague played the track", async () => {
    await setupTrack(echo, { ...track, listens: [] });
    const group = await screen.findByRole("group", { name: "Прослушивания" });
    expect(group.textContent).toContain("Трек ещё никто не слушал");
  });

  it("tells staff which earlier track of another person holds the same file, and nothing for other tracks", async () => {
    const uploaded = "2025-02-01T09:30:00.000Z";
    await setupTrack(echo, {
      ...track,
      duplicate_of: { id: 42, username: "first_artist", upload_date: uploaded, deleted: false },
    });
    await screen.findByTestId("decision-label_koster");
    expect(screen.getByRole("note").textContent).toBe(
      `тот же файл, что трек #42 от @first_artist (${formatDateTime(uploaded)})`,
    );
    cleanup();

    await setupTrack(echo, { ...track, duplicate_of: { id: 42, username: null, upload_date: null, deleted: true } });
    await screen.findByTestId("decision-label_koster");
    expect(screen.getByRole("note").textContent).toBe("тот же файл, что трек #42 (трек удалён)");
    cleanup();

    await setupTrack(echo, { ...track, duplicate_of: null });
    await screen.findByTestId("decision-label_koster");
    expect(screen.queryByRole("note")).toBeNull();
    expect(document.body.textContent).not.toContain("тот же файл");
  });

  it("tells staff which earlier track of another person is the same recording (issue 25)", async () => {
    const uploaded = "2025-03-04T10:15:00.000Z";
    await setupTrack(echo, {
      ...track,
      same_audio_as: { track_id: 77, username: "first_artist", upload_date: uploaded },
    });
    await screen.findByTestId("decision-label_koster");
    expect(screen.getByRole("note").textContent).toBe(
      `та же запись, что трек #77 от @first_artist, ${formatDateTime(uploaded)}`,
    );
    cleanup();

    await setupTrack(echo, { ...track, same_audio_as: { track_id: 77, username: null, upload_date: null } });
    await screen.findByTestId("decision-label_koster");
    expect(screen.getByRole("note").textContent).toBe("та же запись, что трек #77 (трек удалён)");
    cleanup();

    await setupTrack(echo, { ...track, same_audio_as: null });
    await screen.findByTestId("decision-label_koster");
    expect(document.body.textContent).not.toContain("та же запись");
  });

  it("tells staff which track this one looks like another version of (issue 38)", async () => {
    await setupTrack(echo, { ...track, similar_to_track_id: 91 });
    await screen.findByTestId("decision-label_koster");
    expect(screen.getByRole("note").textContent).toBe("похоже на другую версию трека #91");
    cleanup();

    await setupTrack(echo, { ...track, similar_to_track_id: null });
    await screen.findByTestId("decision-label_koster");
    expect(document.body.textContent).not.toContain("другую версию");
  });

  it("sends status, note and message; an empty message is sent as none", async () => {
    const puts = await setupTrack();
    const koster = await screen.findByTestId("decision-label_koster");
    fireEvent.change(within(koster).getByLabelText("Статус"), { target: { value: "accepted" } });
    fireEvent.change(within(koster).getByLabelText("Заметка для сотрудников"), { target: { value: "  берём " } });
    fireEvent.click(within(koster).getByRole("button", { name: "Сохранить решение" }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].body).toEqual({ revision: 1, status: "accepted", note: "берём", message: null });
    expect(await within(koster).findByText("Решение сохранено")).toBeTruthy();
  });

  it("declines with the chosen template in one action", async () => {
    const puts = await setupTrack();
    const koster = await screen.findByTestId("decision-label_koster");
    await within(koster).findByLabelText("Шаблон отказа");
    // Only the decline templates are offered (decision 0224).
    const choices = [...(within(koster).getByLabelText("Шаблон отказа") as HTMLSelectElement).options];
    expect(choices.map((o) => o.value)).toEqual(["4", "9"]);
    fireEvent.change(within(koster).getByLabelText("Шаблон отказа"), { target: { value: "9" } });
    fireEvent.click(within(koster).getByRole("button", { name: "Отклонить с шаблоном" }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].body).toEqual({ revision: 1, status: "declined", note: null, template_id: 9 });
  });

  it("after a decline with a template the form shows it; a note saved then sends no status and the revision it saw", async () => {
    const declined = {
      ...track.decisions[0],
      status: "declined",
      message: "Доработайте сведение и присылайте снова.",
      decided_at: "2025-03-07T10:00:00.000Z",
      revision: 2,
    };
    const puts = await setupTrack((body) => ({
      success: true,
      decision: body.template_id ? declined : { ...declined, note: body.note, revision: 3 },
    }));
    const koster = await screen.findByTestId("decision-label_koster");
    await within(koster).findByLabelText("Шаблон отказа");
    fireEvent.change(within(koster).getByLabelText("Шаблон отказа"), { target: { value: "9" } });
    fireEvent.click(within(koster).getByRole("button", { name: "Отклонить с шаблоном" }));
    await within(koster).findByText("Отклонено с шаблоном");
    expect(within(koster).getByTestId("review-state").textContent).toBe("Отклонён");
    expect((within(koster).getByLabelText("Статус") as HTMLSelectElement).value).toBe("declined");
    expect((within(koster).getByLabelText("Сообщение артисту") as HTMLTextAreaElement).value).toBe(declined.message);
    fireEvent.change(within(koster).getByLabelText("Заметка для сотрудников"), {
      target: { value: "Позвонить через месяц" },
    });
    fireEvent.click(within(koster).getByRole("button", { name: "Сохранить решение" }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].body).toEqual({ revision: 2, note: "Позвонить через месяц", message: declined.message });
    expect(await within(koster).findByText("Решение сохранено")).toBeTruthy();
    expect((within(koster).getByLabelText("Статус") as HTMLSelectElement).value).toBe("declined");
  });

  it("on a 409 shows the decision saved meanwhile, with the server's words, and saves from its revision", async () => {
    const theirs = {
      ...track.decisions[0],
      status: "accepted",
      note: "Чужая заметка",
      message: "Берём!",
      decided_at: "2025-03-07T10:00:00.000Z",
      revision: 5,
    };
    const error = "Решение уже изменено. В форме — текущее решение: проверьте его и сохраните снова";
    const puts = await setupTrack((body) =>
      body.revision === 5
        ? { success: true, decision: { ...theirs, revision: 6, note: body.note } }
        : Response.json({ success: false, error, current: theirs }, { status: 409 })
    );
    const koster = await screen.findByTestId("decision-label_koster");
    fireEvent.change(within(koster).getByLabelText("Статус"), { target: { value: "declined" } });
    fireEvent.click(within(koster).getByRole("button", { name: "Сохранить решение" }));
    expect((await within(koster).findByRole("alert")).textContent).toBe(error);
    expect(within(koster).getByTestId("review-state").textContent).toBe("Принят");
    expect((within(koster).getByLabelText("Статус") as HTMLSelectElement).value).toBe("accepted");
    expect((within(koster).getByLabelText("Заметка для сотрудников") as HTMLTextAreaElement).value).toBe(
      "Чужая заметка",
    );
    expect((within(koster).getByLabelText("Сообщение артисту") as HTMLTextAreaElement).value).toBe("Берём!");
    fireEvent.click(within(koster).getByRole("button", { name: "Сохранить решение" }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].body).toEqual({ revision: 5, note: "Чужая заметка", message: "Берём!" });
  });

  it("counts the message as a person counts and refuses more than 1,000 characters", async () => {
    const puts = await setupTrack();
    const koster = await screen.findByTestId("decision-label_koster");
    const message = within(koster).getByLabelText("Сообщение артисту");
    fireEvent.change(message, { target: { value: "👍".repeat(1000) } });
    expect(within(koster).getByText("1000 / 1000")).toBeTruthy();
    // The counter is the message's description; over the limit it says so and marks the field invalid.
    expect(description(message)).toBe("1000 / 1000");
    expect(message.getAttribute("aria-invalid")).toBeNull();
    fireEvent.change(message, { target: { value: "👍".repeat(1001) } });
    expect(within(koster).getByText("Сообщение артисту не должно превышать 1000 символов")).toBeTruthy();
    expect(description(message)).toBe("Сообщение артисту не должно превышать 1000 символов");
    expect(message.getAttribute("aria-invalid")).toBe("true");
    const save = within(koster).getByRole("button", { name: "Сохранить решение" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(puts).toHaveLength(0);
  });
});

describe("decline templates page", () => {
  it("lists, adds, edits and deletes templates", async () => {
    const calls: string[] = [];
    let list = [...templates];
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({ success: true, user: admin }),
        "/api/admin/decline-templates": async (req) => {
          if (req.method === "POST") {
            const body = await req.json();
            calls.push(`POST ${JSON.stringify(body)}`);
            const template = { id: 20, ...body };
            list = [...list, template];
            return Response.json({ success: true, template }, { status: 201 });
          }
          return { success: true, templates: list };
        },
        "/api/admin/decline-templates/4": async (req) => {
          if (req.method === "DELETE") {
            calls.push("DELETE 4");
            list = list.filter((t) => t.id !== 4);
            return { success: true };
          }
          const body = await req.json();
          calls.push(`PUT 4 ${JSON.stringify(body)}`);
          list = list.map((t) => (t.id === 4 ? { ...t, ...body } : t));
          return { success: true, template: list[0] };
        },
      }),
    );
    await act(() => auth.loadUser());
    renderPage("/admin/decline-templates", AdminDeclineTemplatesPage);
    expect(await screen.findAllByTestId("decline-template")).toHaveLength(3);
    // Grouped by outcome, with the placeholders explained (decision 0224).
    expect(within(screen.getByTestId("templates-accepted")).getByDisplayValue("Берём")).toBeTruthy();
    expect(within(screen.getByTestId("templates-declined")).getAllByTestId("decline-template")).toHaveLength(2);
    expect(screen.getByTestId("template-placeholders").textContent).toContain("{artist}");

    // Add: both fields are required.
    fireEvent.click(screen.getByRole("button", { name: "Добавить шаблон" }));
    expect(screen.getByText("Название шаблона обязательно")).toBeTruthy();
    const [newTitle] = screen.getAllByLabelText("Название");
    const [newText] = screen.getAllByLabelText("Текст сообщения артисту");
    fireEvent.change(newTitle, { target: { value: " Длина " } });
    fireEvent.change(newText, { target: { value: "Трек слишком короткий." } });
    fireEvent.click(screen.getByRole("button", { name: "Добавить шаблон" }));
    expect(await screen.findByText("Шаблон добавлен")).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId("decline-template")).toHaveLength(4));
    expect(calls[0]).toBe(
      `POST ${JSON.stringify({ title: "Длина", text: "Трек слишком короткий.", outcome: "declined" })}`,
    );

    // Edit in place.
    const first = within(screen.getByTestId("templates-declined")).getAllByTestId("decline-template")[0];
    fireEvent.change(within(first).getByLabelText("Текст сообщения артисту"), { target: { value: "Новый текст." } });
    fireEvent.click(within(first).getByRole("button", { name: "Сохранить" }));
    expect(await within(first).findByText("Шаблон сохранён")).toBeTruthy();
    expect(calls[1]).toBe(
      `PUT 4 ${JSON.stringify({ title: "Не подходит по стилю", text: "Новый текст.", outcome: "declined" })}`,
    );

    // Delete after the confirmation.
    fireEvent.click(within(first).getByRole("button", { name: "Удалить" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Удалить" }));
    await waitFor(() => expect(screen.getAllByTestId("decline-template")).toHaveLength(3));
    expect(calls[2]).toBe("DELETE 4");
  });

  it("reads each field's counter or error as its description; an error marks it invalid and typing keeps focus", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({ success: true, user: admin }),
        "/api/admin/decline-templates": () => ({ success: true, templates }),
      }),
    );
    await act(() => auth.loadUser());
    renderPage("/admin/decline-templates", AdminDeclineTemplatesPage);
    await screen.findAllByTestId("decline-template");
    const [title] = screen.getAllByLabelText("Название");
    const [text] = screen.getAllByLabelText("Текст сообщения артисту");
    expect(description(title)).toMatch(/^0 \/ \d+$/);
    expect(description(text)).toMatch(/^0 \/ \d+$/);
    expect(title.getAttribute("aria-invalid")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Добавить шаблон" }));
    expect(description(title)).toBe("Название шаблона обязательно");
    expect(title.getAttribute("aria-invalid")).toBe("true");
    expect(text.getAttribute("aria-invalid")).toBe("true");
    expect(description(text)).toBe("Текст шаблона обязателен");
    title.focus();
    fireEvent.change(title, { target: { value: "Длина" } });
    expect(screen.getAllByLabelText("Название")[0]).toBe(title);
    expect(document.activeElement).toBe(title);
    expect(title.getAttribute("aria-invalid")).toBeNull();
    expect(description(title)).toMatch(/^5 \/ \d+$/);
  });
});
