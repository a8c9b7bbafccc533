// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { ModeratorEpisodePage } from "./episode-page.tsx";
import { parseCue } from "./episode-texts.ts";

useSignedInTestSession();

const track = (id: number, bpm: number, camelot: string) => ({
  track_id: id,
  artist: `Artist ${id}`,
  title: `Title ${id}`,
  filename: `Artist ${id} - Title ${id}.mp3`,
  duration_s: 300,
  bpm,
  key: null,
  camelot,
  drop_s: 60,
  accepted_at: "2026-11-01T10:00:00.000Z",
});

const ALL = { 1: track(1, 170, "8A"), 2: track(2, 174, "9A"), 3: track(3, 176, "3B") } as const;

function episodeWith(ids: number[]) {
  return {
    id: 5,
    direction: "podcast_koster",
    number: 57,
    title: "Ночной",
    name: "Подкаст Костёр #57",
    air_date: "2026-12-01",
    aired_at: null,
    url: null,
    revision: 1,
    track_count: ids.length,
    tracks: ids.map((id, i) => ({ ...ALL[id as 1], position: i + 1, note: null, at_s: null })),
    transitions: [],
    figures: { clashes: 0, max_step_pct: 0, steps_over: 0 },
    notices: [{ track_id: 9, filename: "Gone - Track.mp3", reason: "undone", created_at: "2026-11-02T10:00:00.000Z" }],
  };
}

function setUp(start = [1, 2], hold?: (n: number) => Promise<void>) {
  const saved: number[][] = [];
  let current = start;
  const fetch = fakeFetch({
    "/api/moderator/episodes/5": () => ({ success: true, episode: episodeWith(current) }),
    "/api/moderator/episodes/pool": () => ({
      success: true,
      pool: [ALL[1], ALL[2], ALL[3]].filter((t) => !current.includes(t.track_id)),
    }),
    "/api/moderator/episodes/5/tracks": async (req) => {
      const body = await req.json() as { items: { track_id: number }[] };
      const mine = body.items.map((i) => i.track_id);
      saved.push(mine);
      await hold?.(saved.length);
      current = mine;
      return { success: true, episode: episodeWith(mine) };
    },
  });
  vi.stubGlobal("fetch", fetch);
  const page = renderPage("/moderator/episodes/5", ModeratorEpisodePage, { routePath: "/moderator/episodes/$id" });
  return { saved, queryClient: page.queryClient };
}

const order = () => screen.getAllByTestId("order-row").map((r) => Number(r.getAttribute("data-track")));

describe("the episode page (moderator, English)", () => {
  it("shows each transition's tempo change and key relation, and the staff notices", async () => {
    setUp();
    await settle();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Подкаст Костёр #57 — Ночной");
    expect(screen.getAllByTestId("transition").map((h) => h.textContent)).toEqual(["+2.4 %·+1 on the wheel"]);
    expect(screen.getByTestId("episode-notices").textContent).toContain("Gone - Track.mp3: decision undone");
  });

  it("Enter adds the chosen pool track; ↑/↓ move a track; Delete puts it back in the pool", async () => {
    const { saved } = setUp();
    await settle();
    const pool = screen.getAllByTestId("pool-row");
    expect(pool.map((r) => Number(r.getAttribute("data-track")))).toEqual([3]);
    fireEvent.keyDown(pool[0], { key: "Enter" });
    await settle();
    expect(saved.at(-1)).toEqual([1, 2, 3]);
    expect(order()).toEqual([1, 2, 3]);
    expect(screen.getAllByTestId("transition").map((h) => h.textContent)).toEqual([
      "+2.4 %·+1 on the wheel",
      "+1.1 %·clash",
    ]);
    fireEvent.keyDown(screen.getAllByTestId("order-row")[2], { key: "ArrowUp" });
    await settle();
    expect(saved.at(-1)).toEqual([1, 3, 2]);
    expect(document.activeElement?.getAttribute("data-track")).toBe("3");
    fireEvent.keyDown(screen.getAllByTestId("order-row")[0], { key: "ArrowDown" });
    await settle();
    expect(saved.at(-1)).toEqual([3, 1, 2]);
    fireEvent.keyDown(screen.getAllByTestId("order-row")[1], { key: "Delete" });
    await settle();
    expect(saved.at(-1)).toEqual([3, 2]);
    expect(order()).toEqual([3, 2]);
    expect(screen.getAllByTestId("pool-row").map((r) => Number(r.getAttribute("data-track")))).toEqual([1]);
  });
});

describe("the running order while saves are on their way", () => {
  it("an earlier answer landing after the next key does not put the older order back", async () => {
    let release = () => {};
    const second = new Promise<void>((r) => (release = r));
    const { saved, queryClient } = setUp([], (n) => (n === 2 ? second : Promise.resolve()));
    await settle();
    // The moment the first save's answer enters the cache (before the page has re-rendered with
    // it), the moderator presses Enter on the next pool track: the race the desk met under load.
    let pressed = false;
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      const data = event.query.state.data as { tracks?: unknown[] } | undefined;
      if (pressed || event.type !== "updated" || data?.tracks?.length !== 1) return;
      pressed = true;
      fireEvent.keyDown(screen.getAllByTestId("pool-row")[0], { key: "Enter" });
    });
    fireEvent.keyDown(screen.getAllByTestId("pool-row")[0], { key: "Enter" });
    await settle();
    unsubscribe();
    expect(pressed).toBe(true);
    expect(saved).toEqual([[1], [1, 2]]);
    expect(order()).toEqual([1, 2]);
    fireEvent.keyDown(screen.getAllByTestId("pool-row")[0], { key: "Enter" });
    release();
    await settle();
    expect(saved.at(-1)).toEqual([1, 2, 3]);
    expect(order()).toEqual([1, 2, 3]);
  });
});

describe("parseCue", () => {
  it("reads mm:ss and h:mm:ss, nothing else", () => {
    expect(parseCue("34:10")).toBe(2050);
    expect(parseCue(" 1:02:05 ")).toBe(3725);
    expect(parseCue("0:30")).toBe(30);
    expect(parseCue("34:60")).toBeNull();
    expect(parseCue("1:60:00")).toBeNull();
    expect(parseCue("34")).toBeNull();
    expect(parseCue("")).toBeNull();
  });
});
