// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, renderHook, screen } from "@testing-library/react";
import { type ReactNode, useLayoutEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import type { ReviewTrack } from "../player/figures.ts";
import type { ReviewPlayer } from "../player/use-review-player.ts";
import { useDecisionDesk } from "./use-decision-desk.ts";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { AdminTracksPage } from "../queue/admin-tracks-page.tsx";

/**
 * The review desk (issue 23) on the admin's list in «Новые»: X opens the decline templates, a digit
 * sends one decision for the track's pairs with the revisions seen, the next waiting row starts at
 * once, the decided row stays in place marked (the list is not read again), the address follows the
 * playing track, the hold counts down and Z takes the decision back; keys typed in the message stay there.
 */

const decision = (direction: string, status = "new", revision = 0) => ({
  direction,
  status,
  note: null,
  message: null,
  decided_by: null,
  decided_at: null,
  revision,
});

const track = (id: number, decisions = [decision("label_koster")]) => ({
  id,
  filename: `Artist - Track ${id}.mp3`,
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "artist", name: "Artist" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: decisions.map((d) => d.direction).join(","),
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: null,
  decisions,
  waiting_days: 3,
  overdue: false,
  duplicate_of: null,
});

const TEMPLATES = [
  { id: 11, title: "Принят", text: "Привет, {artist}!", outcome: "accepted" },
  { id: 21, title: "Не подходит по стилю", text: "Спасибо, {artist}", outcome: "declined" },
  { id: 22, title: "Сведение", text: "Доработайте", outcome: "declined" },
];

useSignedInTestSession();

async function show(firstOverdue = false) {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const rows = [
    track(1, [
      { ...decision("label_koster", "listened", 1), ...(firstOverdue ? { overdue: true } : {}) },
      decision("show_neurogon", "new", 0),
    ]),
    track(2),
    track(3),
  ];
  const listCalls: URLSearchParams[] = [];
  const puts: { id: number; body: Record<string, unknown> }[] = [];
  const undos: number[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const method = (input instanceof Request ? input.method : init.method) ?? "GET";
    const body = input instanceof Request ? await input.clone().text() : String(init.body ?? "");
    if (url.pathname === "/api/admin/tracks") {
      listCalls.push(url.searchParams);
      return Response.json({ success: true, tracks: rows, total: 3, filtered: 3, page: 1, pages: 1, page_size: 10 });
    }
    if (url.pathname === "/api/admin/decline-templates") return Response.json({ success: true, templates: TEMPLATES });
    const listen = /^\/api\/admin\/tracks\/(\d+)\/listen$/.exec(url.pathname);
    if (listen) {
      return Response.json({
        success: true,
        stream_url: `/api/listen/token-${listen[1]}`,
        peaks: null,
        duration_s: 200,
      });
    }
    const decide = /^\/api\/admin\/tracks\/(\d+)\/decision$/.exec(url.pathname);
    if (decide && method === "PUT") {
      const id = Number(decide[1]);
      const sent = JSON.parse(body);
      puts.push({ id, body: sent });
      const decisions = rows.find((t) => t.id === id)!.decisions.map((d) => ({
        ...d,
        status: sent.status,
        revision: d.revision + 1,
      }));
      return Response.json({ success: true, decisions, notify_at: new Date(Date.now() + 60_000).toISOString() });
    }
    const undo = /^\/api\/admin\/tracks\/(\d+)\/decision\/undo$/.exec(url.pathname);
    if (undo && method === "POST") {
      const id = Number(undo[1]);
      undos.push(id);
      const decisions = rows.find((t) => t.id === id)!.decisions.map((d) => ({ ...d, revision: d.revision + 2 }));
      return Response.json({ success: true, decisions });
    }
    return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
  });
  const page = renderPage("/admin/tracks?review=new", AdminTracksPage, { routePath: "/admin/tracks" });
  await settle();
  return { ...page, listCalls, puts, undos };
}

const playing = () => document.querySelector("audio")!.getAttribute("src");
const key = async (init: KeyboardEventInit, target: Element = document.body) => {
  fireEvent.keyDown(target, init);
  await settle();
};
const row = (id: number) => document.querySelector(`tr[data-track-id="${id}"]`)!;

describe("review desk", () => {
  it("flags a pair past its response promise in the dock and on the row (issue 25)", async () => {
    await show(true);
    expect(row(1).querySelectorAll("[data-testid=pair-overdue]")).toHaveLength(1);
    expect(row(2).querySelector("[data-testid=pair-overdue]")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    const states = screen.getByRole("group", { name: "Состояние по направлениям" });
    expect([...states.children].map((b) => b.textContent)).toEqual([
      "Лейбл Костер: Прослушан · Просрочен",
      "Шоу Нейрогон: Новый",
    ]);
  });

  it("X then 1 declines every pair with one call, starts the next row, keeps the row in place; Z takes it back", async () => {
    const { router, listCalls, puts, undos } = await show();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    expect(router.state.location.search).toMatchObject({ review: "new", track: 1 });

    await key({ key: "ч", code: "KeyX" });
    const chooser = document.querySelector("[data-desk-chooser]")!;
    expect(chooser.textContent).toContain("Не подходит по стилю");
    expect(chooser.textContent).toContain("Сведение");
    expect(chooser.textContent).not.toContain("Принят");
    // The ready-made message reads as the artist gets it.
    expect(chooser.textContent).toContain("Спасибо, Artist");
    const reads = listCalls.length;

    await key({ key: "1", code: "Digit1" });
    expect(puts).toEqual([{
      id: 1,
      body: {
        status: "declined",
        template_id: 21,
        message: null,
        note: null,
        revisions: { label_koster: 1, show_neurogon: 0 },
      },
    }]);
    expect(playing()).toBe("/api/listen/token-2");
    expect(router.state.location.search).toMatchObject({ track: 2 });
    // Decided here, shown in place, greyed; the list was not read again.
    expect([...document.querySelectorAll("tbody tr[data-track-id]")].map((r) => r.getAttribute("data-track-id")))
      .toEqual(["1", "2", "3"]);
    expect(row(1).hasAttribute("data-left")).toBe(true);
    expect(row(2).hasAttribute("data-left")).toBe(false);
    expect(listCalls.length).toBe(reads);
    expect(screen.getByTestId("decision-hold").textContent).toMatch(/артист узнает через 1:00|0:59/);

    await key({ key: "я", code: "KeyZ" });
    expect(undos).toEqual([1]);
    expect(playing()).toBe("/api/listen/token-1");
    expect(row(1).hasAttribute("data-left")).toBe(false);
    expect(screen.queryByTestId("decision-hold")).toBeNull();
  });

  it("Z pressed while the decision's call is on its way takes back that decision, not the one before it (0465)", async () => {
    const { puts, undos } = await show();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    await key({ key: "ч", code: "KeyX" });
    await key({ key: "1", code: "Digit1" });
    // Track 1 is decided and held (its hold line shows); track 2 plays.
    expect(screen.getByTestId("decision-hold").textContent).toContain("Artist - Track 1.mp3");
    expect(playing()).toBe("/api/listen/token-2");
    // Track 2's decision: its call waits (a loaded server) while the moderator presses Z at once.
    const answered = globalThis.fetch;
    let letGo = () => {};
    const gate = new Promise<void>((r) => (letGo = r));
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input instanceof Request ? input.url : input);
      const method = (input instanceof Request ? input.method : init.method) ?? "GET";
      if (method === "PUT" && url.endsWith("/tracks/2/decision")) await gate;
      return answered(input, init);
    });
    await key({ key: "ч", code: "KeyX" });
    await key({ key: "1", code: "Digit1" });
    expect(puts.map((p) => p.id)).toEqual([1]);
    await key({ key: "я", code: "KeyZ" });
    // Not track 1's decision, whose hold line is still the one on screen.
    expect(undos).toEqual([]);
    letGo();
    await settle();
    expect(puts.map((p) => p.id)).toEqual([1, 2]);
    expect(undos).toEqual([2]);
    expect(playing()).toBe("/api/listen/token-2");
  });

  it("S shortlists in one key; keys typed into the message stay there; Esc gives them back", async () => {
    const { puts } = await show();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 2.mp3" }));
    await settle();
    await key({ key: "m", code: "KeyM" });
    await new Promise((r) => setTimeout(r, 20));
    const message = screen.getByLabelText(/Сообщение артисту/) as HTMLTextAreaElement;
    message.focus();
    await key({ key: "a", code: "KeyA" }, message);
    await key({ key: "s", code: "KeyS" }, message);
    expect(document.querySelector("[data-desk-chooser]")).toBeNull();
    expect(puts).toHaveLength(0);
    fireEvent.change(message, { target: { value: "Держим в шорт-листе" } });
    await key({ key: "Escape", code: "Escape" }, message);
    await key({ key: "ы", code: "KeyS" });
    expect(puts).toEqual([{
      id: 2,
      body: {
        status: "shortlisted",
        template_id: null,
        message: "Держим в шорт-листе",
        note: null,
        revisions: { label_koster: 0 },
      },
    }]);
    expect(playing()).toBe("/api/listen/token-3");
  });

  it("the upload date column sorts both ways (oldest first, then newest first), through the address and the request", async () => {
    const { router, listCalls } = await show();
    fireEvent.click(screen.getByRole("button", { name: "Дата загрузки" }));
    await settle();
    expect(router.state.location.search).toMatchObject({ sort: "upload_date" });
    expect(listCalls.at(-1)?.get("sort")).toBe("upload_date");
    expect(screen.getByRole("columnheader", { name: /Дата загрузки/ }).getAttribute("aria-sort")).toBe("ascending");
    fireEvent.click(screen.getByRole("button", { name: /Дата загрузки/ }));
    await settle();
    // Newest first is the default, left out of the address.
    expect(router.state.location.search).not.toHaveProperty("sort");
    expect(listCalls.at(-1)?.get("sort")).toBe("-upload_date");
    expect(screen.getByRole("columnheader", { name: /Дата загрузки/ }).getAttribute("aria-sort")).toBe("descending");
  });
});

describe("review desk: keys right after another track shows (0465)", () => {
  it("X on the new track opens its chooser even before the effects of the render that showed it ran", () => {
    vi.stubGlobal("fetch", () => Promise.resolve(Response.json({ success: true, templates: TEMPLATES })));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const [one, two] = [track(1), track(2)] as unknown as ReviewTrack[];
    // The player moved on without a key (after Z, a 409's «decide again», a page read again): the
    // browser may take the moderator's X between that render's commit and its effects. A layout
    // effect runs in that gap: X is pressed there.
    const { result, rerender } = renderHook(({ current }: { current: ReviewTrack }) => {
      const player = { current, done: false, advance: () => {}, ready: () => {} } as unknown as ReviewPlayer;
      const desk = useDecisionDesk({ base: "/admin", tracksKey: ["admin", "tracks"], player, canDecide: () => true });
      useLayoutEffect(() => {
        if (current.id === 2) desk.choose("declined");
      }, [current.id]);
      return desk;
    }, { initialProps: { current: one }, wrapper });
    expect(result.current.chooser).toBeNull();
    rerender({ current: two });
    expect(result.current.track?.id).toBe(2);
    expect(result.current.chooser).toBe("declined");
  });
});
