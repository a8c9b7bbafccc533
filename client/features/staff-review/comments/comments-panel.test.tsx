// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, renderHook, screen } from "@testing-library/react";
import { type ReactNode, useLayoutEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import { COMMENT_TEXTS_EN } from "../texts/comment-texts.ts";
import { useTrackComments } from "./use-track-comments.ts";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { AdminTracksPage } from "../queue/admin-tracks-page.tsx";

/**
 * Comments on the waveform (issue 24, decision 0231) in the admin's player: the track's comments
 * show as markers and as a list with their authors; a marker or a moment seeks there; C (by its
 * physical key, so «С» on a Russian layout) opens a comment at the current moment, Enter sends it
 * with the «показать артисту» switch; C typed into the comment is text, not a new comment.
 */

const track = {
  id: 1,
  filename: "Artist - Track 1.mp3",
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "artist", name: "Artist" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 100_000,
  has_file: true,
  analysis: null,
  decisions: [{
    direction: "label_koster",
    status: "new",
    note: null,
    message: null,
    decided_by: null,
    decided_at: null,
    revision: 0,
  }],
  waiting_days: 3,
  overdue: false,
  duplicate_of: null,
};

const COMMENTS = [
  {
    id: 7,
    at_s: 20,
    end_s: null,
    text: "Бас расходится с бочкой",
    shared: true,
    author: { id: 99, name: "Анна" },
    created_at: "2025-03-06T10:00:00.000Z",
  },
  {
    id: 8,
    at_s: 30,
    end_s: 40,
    text: "Клиппует",
    shared: false,
    author: null,
    created_at: "2025-03-06T10:01:00.000Z",
  },
];

useSignedInTestSession();

async function show() {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const posts: unknown[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const method = (input instanceof Request ? input.method : init.method) ?? "GET";
    const body = input instanceof Request ? await input.clone().text() : String(init.body ?? "");
    if (url.pathname === "/api/admin/tracks") {
      return Response.json({ success: true, tracks: [track], total: 1, filtered: 1, page: 1, pages: 1, page_size: 10 });
    }
    if (url.pathname === "/api/admin/decline-templates") return Response.json({ success: true, templates: [] });
    if (url.pathname === "/api/admin/tracks/1/listen") {
      return Response.json({ success: true, stream_url: "/api/listen/token-1", peaks: null, duration_s: 100 });
    }
    if (url.pathname === "/api/admin/tracks/1" && method === "GET") {
      return Response.json({
        success: true,
        track: { ...track, decision_history: [], listens: [], comments: COMMENTS },
      });
    }
    if (url.pathname === "/api/admin/tracks/1/comments" && method === "POST") {
      posts.push(JSON.parse(body));
      return Response.json({ success: true, comment: { ...COMMENTS[0], id: 9 } }, { status: 201 });
    }
    return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
  });
  renderPage("/admin/tracks", AdminTracksPage, { routePath: "/admin/tracks" });
  await settle();
  fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
  await settle();
  await settle();
  return { posts };
}

const key = async (init: KeyboardEventInit, target: Element = document.body) => {
  fireEvent.keyDown(target, init);
  await settle();
};

describe("comments on the waveform", () => {
  it("shows a marker per comment where it is, and the list with authors; a marker seeks there", async () => {
    await show();
    const markers = [...document.querySelectorAll<HTMLButtonElement>(".st-wave-marker")];
    expect(markers.map((m) => [m.dataset.at, m.style.left, m.hasAttribute("data-shared")])).toEqual([
      ["20", "20%", true],
      ["30", "30%", false],
    ]);
    expect(markers[1].style.width).toBe("calc(40% - 30%)");
    expect(screen.getByRole("button", { name: "Комментарий на 0:20: Бас расходится с бочкой" })).toBe(markers[0]);
    const list = document.querySelector(".st-comment-list")!;
    expect(list.textContent).toContain("Анна");
    expect(list.textContent).toContain("Виден артисту");
    expect(list.textContent).toContain("Удалённый пользователь");
    expect(list.textContent).toContain("0:30–0:40");

    const audio = document.querySelector("audio")!;
    fireEvent.click(markers[1]);
    expect(audio.currentTime).toBe(30);
    fireEvent.click(screen.getByRole("button", { name: "Перейти к 0:20" }));
    expect(audio.currentTime).toBe(20);
  });

  it("C opens a comment at the current moment; Enter sends it, shared when switched; C in the text is text", async () => {
    const { posts } = await show();
    const audio = document.querySelector("audio")!;
    audio.currentTime = 12.34;
    // «С» on a Russian layout is the physical C.
    await key({ key: "с", code: "KeyC" });
    const field = screen.getByLabelText("Новый комментарий на 0:12") as HTMLTextAreaElement;
    expect(document.activeElement).toBe(field);
    await key({ key: "c", code: "KeyC" }, field);
    expect(screen.getAllByRole("textbox", { name: /Новый комментарий/ })).toHaveLength(1);
    fireEvent.change(field, { target: { value: "Кик клиппует" } });
    fireEvent.click(screen.getAllByRole("switch", { name: "показать артисту" })[0]);
    await key({ key: "Enter", code: "Enter" }, field);
    await settle();
    expect(posts).toEqual([{ at_s: 12.3, end_s: null, text: "Кик клиппует", shared: true }]);
    expect(screen.queryByRole("textbox", { name: /Новый комментарий/ })).toBeNull();
  });

  it("Enter pressed twice (or held) before the answer saves the comment once (issue 31)", async () => {
    const { posts } = await show();
    await key({ key: "с", code: "KeyC" });
    const field = screen.getByLabelText("Новый комментарий на 0:00") as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: "Один раз" } });
    // Both presses land before the first request is answered.
    fireEvent.keyDown(field, { key: "Enter", code: "Enter" });
    fireEvent.keyDown(field, { key: "Enter", code: "Enter" });
    fireEvent.submit(field.closest("form")!);
    await settle();
    await settle();
    expect(posts).toEqual([{ at_s: 0, end_s: null, text: "Один раз", shared: false }]);
    expect(screen.queryByRole("textbox", { name: /Новый комментарий/ })).toBeNull();
  });

  it("a press dragged across the waveform opens a comment over that range; the button opens one at the moment", async () => {
    const { posts } = await show();
    const audio = document.querySelector("audio")!;
    audio.currentTime = 5;
    const wave = document.querySelector<HTMLElement>(".st-wave")!;
    wave.getBoundingClientRect = () =>
      ({ left: 0, width: 1000, top: 0, height: 56, right: 1000, bottom: 56 }) as DOMRect;
    fireEvent.pointerDown(wave, { clientX: 200, button: 0 });
    fireEvent.pointerMove(wave, { clientX: 260 });
    fireEvent.pointerMove(wave, { clientX: 300 });
    fireEvent.pointerUp(wave, { clientX: 300 });
    fireEvent.click(wave, { clientX: 300 });
    await settle();
    // The drag did not seek.
    expect(audio.currentTime).toBe(5);
    const field = screen.getByLabelText("Новый комментарий на 0:20–0:30") as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: "Отрезок" } });
    await key({ key: "Enter", code: "Enter" }, field);
    await settle();
    expect(posts).toEqual([{ at_s: 20, end_s: 30, text: "Отрезок", shared: false }]);

    const button = screen.getByRole("button", { name: "Комментарий C" });
    expect(button.getAttribute("aria-keyshortcuts")).toBe("C");
    fireEvent.click(button);
    await settle();
    expect(screen.getByLabelText("Новый комментарий на 0:05")).toBeTruthy();
  });
});

describe("comments: C right after another track shows (0465)", () => {
  it("keeps the comment C opened on the new track before the effects of the render that showed it ran", () => {
    vi.stubGlobal("fetch", () => Promise.resolve(Response.json({ success: true, track: { id: 2, comments: [] } })));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    // The player moved on without a key; the browser takes C between that render's commit and its
    // effects (a layout effect runs in that gap).
    const { result, rerender } = renderHook(({ id }: { id: number }) => {
      const player = { current: { id }, audio: null, seekTo: () => {} };
      const comments = useTrackComments({
        base: "/admin",
        tracksKey: ["admin", "tracks"],
        player,
        texts: COMMENT_TEXTS_EN,
      });
      useLayoutEffect(() => {
        if (id === 2) comments.startAtNow();
      }, [id]);
      return comments;
    }, { initialProps: { id: 1 }, wrapper });
    expect(result.current.draft).toBeNull();
    rerender({ id: 2 });
    expect(result.current.draft).toMatchObject({ at_s: 0, text: "" });
  });
});
