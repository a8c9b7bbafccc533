// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auth } from "../../../lib/auth.ts";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { TrackVotes } from "./track-votes.tsx";
import { VoteScore } from "./vote-score.tsx";

/**
 * Issue 24 (decision 0229): the desk's and edit page's vote buttons. Before the caller votes only
 * the number of votes shows; a vote sends 1, 0 or -1 with the word, and the answer's votes are then
 * listed with names; «Отозвать» withdraws it. The queue's badge hides the score behind «?».
 */

const moderator = {
  id: 7,
  username: "mod",
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster",
  is_banned: false,
};

const hiddenTrack = {
  id: 5,
  filename: "Artist - Title.mp3",
  directions: "label_koster",
  votes: [],
  vote_summary: [{ direction: "label_koster" as const, count: 1, score: null, second_ear: true, my_vote: null }],
};

const theirs = {
  direction: "label_koster",
  user_id: 3,
  name: "Вера Басова",
  vote: 1,
  word: "качает",
  voted_at: "2026-11-25T10:00:00.000Z",
};

useSignedInTestSession();
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function setup() {
  const sent: Array<{ method: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user: moderator }),
      "/api/moderator/tracks/5": () => ({ success: true, track: hiddenTrack }),
      "/api/moderator/tracks/5/votes/label_koster": async (req) => {
        const body = req.method === "PUT" ? await req.json() : null;
        sent.push({ method: req.method, body });
        if (req.method === "DELETE") {
          return { success: true, votes: [], vote_summary: hiddenTrack.vote_summary[0] };
        }
        const mine = { ...theirs, user_id: 7, name: "Модератор", vote: body.vote, word: body.word };
        return {
          success: true,
          votes: [theirs, mine],
          vote_summary: {
            direction: "label_koster",
            count: 2,
            score: 1 + body.vote,
            second_ear: true,
            my_vote: body.vote,
          },
        };
      },
    }),
  );
  await act(() => auth.loadUser());
  renderPage(
    "/votes",
    () => <TrackVotes base="/moderator" tracksKey={["moderator", "tracks"]} trackId={5} label={(d) => `dir:${d}`} />,
  );
  await settle(4);
  return sent;
}

describe("the vote buttons", () => {
  it("hides the others' votes until the caller votes, then lists them with names", async () => {
    const sent = await setup();
    const box = await screen.findByTestId("track-votes");
    expect(box.textContent).toContain("Голосов: 1. Они видны после вашего голоса");
    expect(box.textContent).not.toContain("Вера Басова");
    const buttons = within(box).getAllByRole("button");
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual(["За", "Сомневаюсь", "Против"]);
    expect(buttons.every((b) => b.getAttribute("aria-pressed") === "false")).toBe(true);

    fireEvent.change(within(box).getByLabelText("Слово к голосу (необязательно)"), {
      target: { value: "  мутный бас " },
    });
    fireEvent.click(within(box).getByRole("button", { name: "Против" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: "PUT", body: { vote: -1, word: "мутный бас" } });
    const list = await screen.findByRole("list", { name: "Голоса" });
    const items = within(list).getAllByRole("listitem").map((li) => li.textContent);
    expect(items[0]).toContain("Вера Басова");
    expect(items[0]).toContain("качает");
    expect(items[1]).toContain("мутный бас");
    expect(within(box).getByRole("button", { name: "Против" }).getAttribute("aria-pressed")).toBe("true");

    fireEvent.click(within(box).getByRole("button", { name: "Отозвать" }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].method).toBe("DELETE");
    await waitFor(() => expect(screen.queryByRole("list", { name: "Голоса" })).toBeNull());
    expect(screen.getByTestId("track-votes").textContent).toContain("Они видны после вашего голоса");
  });
});

describe("the queue's score badge", () => {
  it("shows «?» and the second-ear mark while hidden, the signed sum once seen, nothing without votes", () => {
    const { container, rerender } = render(
      <VoteScore summary={hiddenTrack.vote_summary} label={(d) => d} locale="ru-RU" />,
    );
    expect(container.querySelector("strong")?.textContent).toBe("?");
    expect(container.textContent).toContain("второе мнение");
    expect(container.textContent).toContain("оценка скрыта до вашего голоса, голосов: 1");
    rerender(
      <VoteScore
        summary={[{ direction: "label_koster", count: 3, score: -2, second_ear: false, my_vote: -1 }]}
        label={(d) => d}
        locale="ru-RU"
      />,
    );
    expect(container.querySelector("strong")?.textContent).toBe("−2");
    expect(container.textContent).not.toContain("второе мнение");
    rerender(
      <VoteScore
        summary={[{ direction: "label_koster", count: 0, score: null, second_ear: false, my_vote: null }]}
        label={(d) => d}
        locale="ru-RU"
      />,
    );
    expect(container.textContent).toBe("");
  });
});
