// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { ArtistReleasePage } from "./artist-pages.tsx";
import { ModeratorReleasesPage } from "./staff-list-page.tsx";

/**
 * The release desk's pages (issue 34): the artist's label copy form sends the whole copy and shows
 * the server's refusal as it comes; the moderator's list is English.
 */
useSignedInTestSession();

const material = (kind: string, state = "missing", required = true) => ({
  kind,
  required,
  state,
  reason: null,
  filename: null,
  size: null,
  updated_at: null,
});

const release = {
  id: 5,
  track_id: 9,
  direction: "label_neuropunk",
  label: "Neuropunk Records",
  stage: "materials_requested",
  revision: 0,
  title: "Северный ветер",
  version: null,
  artists: ["Космонавт"],
  catalogue_number: null,
  release_date: null,
  track_filename: "Космонавт - Северный ветер.mp3",
  label_copy: null,
  isrc: null,
  materials: [material("master"), material("label_copy"), material("sample_clearance")],
  materials_complete: false,
  accepted_at: "2027-03-01T10:00:00.000Z",
  materials_complete_at: null,
  released_at: null,
  updated_at: "2027-03-01T10:00:00.000Z",
};

describe("the artist's release page", () => {
  it("shows the checklist and sends the label copy; a refusal is shown with its reason", async () => {
    const sent: Record<string, unknown>[] = [];
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/releases/5": () => ({ success: true, release }),
        "/api/releases/5/label-copy": async (req) => {
          const body = await req.json();
          sent.push(body);
          if (sent.length === 1) {
            return Response.json({
              success: false,
              error: "authors: доли авторов в сумме должны быть ровно 100 (сейчас 90)",
            }, { status: 400 });
          }
          return { success: true, release: { ...release, label_copy: body } };
        },
      }),
    );
    renderPage("/releases/5", ArtistReleasePage, { routePath: "/releases/$id" });
    await settle();
    expect(screen.getByRole("heading", { level: 1, name: "Космонавт — Северный ветер" })).toBeTruthy();
    const checklist = within(screen.getByTestId("release-checklist"));
    expect(checklist.getAllByRole("listitem").map((li) => li.getAttribute("data-kind"))).toEqual([
      "master",
      "label_copy",
      "sample_clearance",
    ]);
    const form = within(screen.getByTestId("label-copy-form"));
    expect((form.getByLabelText("Название") as HTMLInputElement).value).toBe("Северный ветер");
    fireEvent.change(form.getByLabelText("Имя автора"), { target: { value: "Иван Петров" } });
    fireEvent.change(form.getByLabelText("Доля, %"), { target: { value: "90" } });
    expect(form.getByText("Сумма долей: 90%")).toBeTruthy();
    fireEvent.click(form.getByRole("button", { name: "Сохранить данные релиза" }));
    await settle();
    expect(form.getByRole("alert").textContent).toBe("authors: доли авторов в сумме должны быть ровно 100 (сейчас 90)");
    fireEvent.change(form.getByLabelText("Доля, %"), { target: { value: "100" } });
    fireEvent.click(form.getByRole("checkbox", { name: "В треке есть чужие сэмплы" }));
    fireEvent.change(form.getByLabelText("Какие сэмплы и откуда"), { target: { value: "Amen break" } });
    fireEvent.click(form.getByRole("button", { name: "Сохранить данные релиза" }));
    await settle();
    expect(sent[1]).toEqual({
      title: "Северный ветер",
      version: null,
      artists: ["Космонавт"],
      featuring: [],
      remixers: [],
      authors: [{ name: "Иван Петров", role: "music", share: 100 }],
      samples: { used: true, cleared: false, details: "Amen break" },
      isrc: null,
    });
    expect(screen.getByText("Данные релиза сохранены")).toBeTruthy();
  });
});

describe("the moderator's release desk", () => {
  it("is English: tabs, filters, stages, and the waiting list with days waited", async () => {
    const staff = {
      ...release,
      note: null,
      artist_username: "kosmo",
      user_id: 3,
      suggested_catalogue_number: "KSTR001",
      waiting_days: 4,
      duration_s: null,
      bpm: null,
      musical_key: null,
      reminders_sent: 1,
      direction: "label_koster",
    };
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/moderator/releases": () => ({
          success: true,
          releases: [staff],
          total: 1,
          page: 1,
          pages: 1,
          page_size: 50,
        }),
      }),
    );
    renderPage("/moderator/releases", ModeratorReleasesPage);
    await settle();
    expect(screen.getByRole("heading", { level: 1, name: "Releases" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "All releases" })).toBeTruthy();
    expect(screen.getByText("Waiting for materials", { selector: "td span" })).toBeTruthy();
    fireEvent.click(screen.getByRole("tab", { name: "Waiting for materials" }));
    await settle();
    expect(screen.getByTestId("waited").textContent).toBe("waiting 4 days");
    expect(screen.getByTestId("waiting-list").textContent).toContain("Master, Label copy, Sample clearance");
  });
});
