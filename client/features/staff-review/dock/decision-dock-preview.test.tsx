// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { AdminTracksPage } from "../queue/admin-tracks-page.tsx";

/**
 * Issue 31 "Read before you send": the desk's chooser shows each template's whole text filled by
 * the server's rule (domain/decision-message.ts): `{direction}` is the public name the artist knows
 * («Лейбл Костёр», not the staff's «Лейбл Костер»), once per direction when the texts differ.
 */

const decision = (direction: string) => ({
  direction,
  status: "new",
  note: null,
  message: null,
  decided_by: null,
  decided_at: null,
  revision: 0,
});

const TEXT = "  {artist}, «{title}» не для «{direction}».\nПрисылайте ещё!  ";

useSignedInTestSession();

async function show(directions: string[]) {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const rows = [{
    id: 1,
    filename: "Noisia - Stigma.mp3",
    user_id: 5,
    guest_username: null,
    user_info: { id: 5, username: "artist", name: "Artist" },
    upload_date: "2025-03-05T11:07:00.000Z",
    directions: directions.join(","),
    downloaded: false,
    status: "completed",
    size: 1000,
    duration: 200_000,
    has_file: true,
    analysis: null,
    decisions: directions.map(decision),
    waiting_days: 3,
    overdue: false,
    duplicate_of: null,
  }];
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    if (url.pathname === "/api/admin/tracks") {
      return Response.json({ success: true, tracks: rows, total: 1, filtered: 1, page: 1, pages: 1, page_size: 10 });
    }
    if (url.pathname === "/api/admin/decline-templates") {
      return Response.json({
        success: true,
        templates: [{ id: 21, title: "Стиль", text: TEXT, outcome: "declined" }],
      });
    }
    if (url.pathname === "/api/admin/tracks/1/listen") {
      return Response.json({ success: true, stream_url: "/api/listen/t", peaks: null, duration_s: 200 });
    }
    return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
  });
  renderPage("/admin/tracks?review=new", AdminTracksPage, { routePath: "/admin/tracks" });
  await settle();
  fireEvent.click(screen.getByRole("button", { name: "Слушать: Noisia - Stigma.mp3" }));
  await settle();
  fireEvent.keyDown(document.body, { key: "x" });
  await settle();
  return [...document.querySelectorAll("[data-desk-chooser] [data-template-text]")].map((n) => n.textContent);
}

describe("the chooser's preview", () => {
  it("is the whole text as sent: trimmed, line breaks kept, the public direction name", async () => {
    expect(await show(["label_koster"])).toEqual(["Noisia, «Stigma» не для «Лейбл Костёр».\nПрисылайте ещё!"]);
  });

  it("shows each direction's text when `{direction}` makes them differ", async () => {
    expect(await show(["label_koster", "show_neurogon"])).toEqual([
      "Noisia, «Stigma» не для «Лейбл Костёр».\nПрисылайте ещё!",
      "Noisia, «Stigma» не для «Шоу Нейрогон».\nПрисылайте ещё!",
    ]);
  });
});
