// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { AdminTracksPage } from "../queue/admin-tracks-page.tsx";

/**
 * Issue 31 on the admin's desk in «Новые» (decisions 0275–0279): S is held and Z takes it back
 * though nobody was told; after the last undecided track the player stops, the outcomes rest and
 * the dock offers the views that still wait; a track left with J is not offered again; a 409 names
 * who decided what and offers to keep it or decide again; the player's track has its presence asked
 * for however it was opened.
 */

type Decision = {
  direction: string;
  status: string;
  note: null;
  message: null;
  decided_by: { id: number; username: string; name: string } | null;
  decided_at: string | null;
  revision: number;
};
const pair = (direction = "label_koster", status = "new", revision = 0): Decision => ({
  direction,
  status,
  note: null,
  message: null,
  decided_by: null,
  decided_at: null,
  revision,
});

const track = (id: number) => ({
  id,
  filename: `Artist - Track ${id}.mp3`,
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "artist", name: "Artist" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: null,
  decisions: [pair()],
  waiting_days: 3,
  overdue: false,
  duplicate_of: null,
  assignee: null,
});

useSignedInTestSession();

interface Options {
  /** The PUT of this track answers 409: @vera declined it meanwhile. */
  conflictOn?: number;
  /** The address the page opens. */
  path?: string;
  /** Tracks the list holds (the first page). */
  count?: number;
}

async function show({ conflictOn, path = "/admin/tracks?review=new", count = 3 }: Options = {}) {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const rows = Array.from({ length: count }, (_, i) => track(i + 1));
  const calls = { puts: [] as number[], undos: [] as number[], counts: [] as string[], presence: [] as string[] };
  const waits = (t: ReturnType<typeof track>) => t.decisions.some((d) => d.status === "new");
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const method = (input instanceof Request ? input.method : init.method) ?? "GET";
    const body = input instanceof Request ? await input.clone().text() : String(init.body ?? "");
    const q = url.searchParams;
    if (url.pathname === "/api/admin/tracks") {
      if (q.has("direction") || q.has("assigned")) {
        // The dock's counts of the next views.
        calls.counts.push(q.toString());
        const n = q.get("direction") === "show_neurogon" ? 4 : 0;
        return Response.json({ success: true, tracks: [], total: 9, filtered: n, page: 1, pages: 1, page_size: 10 });
      }
      const shown = q.get("review") === "new" ? rows.filter(waits) : rows;
      return Response.json({ success: true, tracks: shown, total: 3, filtered: shown.length, page: 1, pages: 1 });
    }
    if (url.pathname === "/api/admin/tracks/assignable-staff") {
      return Response.json({
        success: true,
        staff: [{ id: 1, username: "boss", name: "boss", directions: ["label_koster", "show_neurogon"] }],
      });
    }
    if (url.pathname === "/api/admin/tracks/presence") {
      calls.presence.push(q.get("ids") ?? "");
      return Response.json({ success: true, presence: [] });
    }
    if (url.pathname === "/api/admin/decline-templates") return Response.json({ success: true, templates: [] });
    const one = /^\/api\/admin\/tracks\/(\d+)$/.exec(url.pathname);
    if (one) {
      const t = rows.find((r) => r.id === Number(one[1])) ?? track(Number(one[1]));
      return Response.json({ success: true, track: { ...t, comments: [], decision_history: [], listens: [] } });
    }
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
      const t = rows.find((r) => r.id === Number(decide[1]))!;
      const sent = JSON.parse(body);
      calls.puts.push(t.id);
      if (t.id === conflictOn) {
        t.decisions = [{
          ...pair("label_koster", "declined", 1),
          decided_by: { id: 7, username: "vera", name: "Вера" },
          decided_at: "2026-11-29T04:31:00.000Z",
        }];
        return Response.json(
          { success: false, error: "Пока вы слушали…", current: t.decisions, decisions: t.decisions },
          { status: 409 },
        );
      }
      t.decisions = t.decisions.map((d) => ({ ...d, status: sent.status, revision: d.revision + 1 }));
      return Response.json({
        success: true,
        decisions: t.decisions,
        // A shortlist without a message: nobody is told, but the call can be taken back for a minute.
        notify_at: sent.status === "shortlisted" ? null : new Date(Date.now() + 60_000).toISOString(),
        undo_until: new Date(Date.now() + 60_000).toISOString(),
      });
    }
    const undo = /^\/api\/admin\/tracks\/(\d+)\/decision\/undo$/.exec(url.pathname);
    if (undo && method === "POST") {
      const t = rows.find((r) => r.id === Number(undo[1]))!;
      calls.undos.push(t.id);
      t.decisions = t.decisions.map((d) => ({ ...d, status: "new", revision: d.revision + 1 }));
      return Response.json({ success: true, decisions: t.decisions });
    }
    return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
  });
  const page = renderPage(path, AdminTracksPage, { routePath: "/admin/tracks" });
  await settle(6);
  return { ...page, rows, calls };
}

const playing = () => document.querySelector("audio")!.getAttribute("src");
const paused = () => document.querySelector("audio")!.paused;
const key = async (code: string, key = code.replace(/^Key/, "").toLowerCase()) => {
  fireEvent.keyDown(document.body, { key, code });
  await settle(4);
};
const listen = async (id: number) => {
  fireEvent.click(screen.getByRole("button", { name: `Слушать: Artist - Track ${id}.mp3` }));
  await settle();
};
const outcome = (name: RegExp) =>
  [...screen.getByRole("group", { name: "Решение по треку" }).querySelectorAll("button")]
    .find((b) => name.test(b.textContent ?? ""))!;

describe("desk slips and ends (issue 31)", () => {
  it("S is held: the dock counts the undo down though nobody is told, and Z restores the pair", async () => {
    const { calls, rows } = await show();
    await listen(1);
    await key("KeyS");
    expect(calls.puts).toEqual([1]);
    expect(playing()).toBe("/api/listen/token-2");
    const hold = screen.getByTestId("decision-hold");
    expect(hold.textContent).toContain("«Artist - Track 1.mp3»: в шорт-листе — отменить можно ещё");
    expect(hold.textContent).toMatch(/[01]:\d\d/);
    await key("KeyZ");
    expect(calls.undos).toEqual([1]);
    expect(rows[0].decisions[0].status).toBe("new");
    expect(playing()).toBe("/api/listen/token-1");
    expect(screen.queryByTestId("decision-hold")).toBeNull();
  });

  it("after the last undecided track the player stops, the outcomes rest, the dock offers what still waits", async () => {
    const { calls } = await show({ count: 2 });
    await listen(1);
    await key("KeyS");
    expect(playing()).toBe("/api/listen/token-2");
    await key("KeyS");
    await settle(6);
    expect(calls.puts).toEqual([1, 2]);
    const done = screen.getByTestId("queue-done");
    expect(done.textContent).toContain("Вид разобран");
    expect(paused()).toBe(true);
    expect(outcome(/Принять/).disabled).toBe(true);
    // A key does nothing more: S sends nothing, J says the view is done.
    await key("KeyS");
    expect(calls.puts).toEqual([1, 2]);
    // Only the views with something waiting are offered (label_koster has none, show_neurogon 4).
    const links = screen.getAllByTestId("next-view");
    expect(links.map((l) => l.textContent)).toEqual(["Новые · Шоу Нейрогон (4)"]);
    expect(links[0].getAttribute("href")).toContain("direction=show_neurogon");
    expect(links[0].getAttribute("href")).toContain("review=new");
    expect(calls.counts.some((c) => c.includes("assigned=me"))).toBe(true);
  });

  it("a track left with J is not offered again: the next decisions go past it, and the end offers it back", async () => {
    const { calls } = await show();
    await listen(1);
    await key("KeyJ");
    expect(playing()).toBe("/api/listen/token-2");
    await key("KeyS");
    expect(playing()).toBe("/api/listen/token-3");
    await key("KeyS");
    await settle(6);
    // Track 1 still waits, but was skipped: the view reads as done, with the way back to it.
    expect(calls.puts).toEqual([2, 3]);
    expect(screen.getByTestId("queue-done")).toBeTruthy();
    const back = screen.getByRole("button", { name: "Вернуться к пропущенным (1)" });
    fireEvent.click(back);
    await settle();
    expect(playing()).toBe("/api/listen/token-1");
    expect(screen.queryByTestId("queue-done")).toBeNull();
  });

  it("a 409 names who decided what and when; «Решить заново» goes back to the track with their state", async () => {
    const { calls } = await show({ conflictOn: 1 });
    await listen(1);
    await key("KeyS");
    await settle(4);
    expect(calls.puts).toEqual([1]);
    const alert = screen.getByTestId("desk-conflict");
    expect(alert.textContent).toContain(
      "«Artist - Track 1.mp3»: пока вы слушали, решение уже принял другой сотрудник.",
    );
    expect(alert.textContent).toMatch(/@vera: Отклонён — Лейбл Костер, 29 нояб\.?,? 0?\d:31/);
    expect(alert.textContent).not.toContain("В форме");
    fireEvent.click(screen.getByRole("button", { name: "Решить заново" }));
    await settle();
    expect(playing()).toBe("/api/listen/token-1");
    expect(screen.queryByTestId("desk-conflict")).toBeNull();
    const states = screen.getByRole("group", { name: "Состояние по направлениям" });
    expect(states.textContent).toContain("Отклонён");
  });

  it("«Оставить их решение» closes the notice and the desk goes on from the next track", async () => {
    await show({ conflictOn: 1 });
    await listen(1);
    await key("KeyS");
    await settle(4);
    fireEvent.click(screen.getByRole("button", { name: "Оставить их решение" }));
    await settle();
    expect(screen.queryByTestId("desk-conflict")).toBeNull();
    expect(playing()).toBe("/api/listen/token-2");
  });

  it("the player's track opened by its address, off the page shown, has its presence asked for", async () => {
    const { calls } = await show({ path: "/admin/tracks?review=new&track=77" });
    await settle(6);
    expect(playing()).toBe("/api/listen/token-77");
    expect(calls.presence.at(-1)?.split(",")).toContain("77");
  });
});
