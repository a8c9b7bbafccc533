// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { ModeratorIntakePage } from "./intake-page.tsx";

useSignedInTestSession();

describe("moderator Intake page", () => {
  it("shows the rules of the moderator's directions only, read-only", async () => {
    const fetch = fakeFetch({
      "/api/moderator/intake": () => ({
        success: true,
        intake: [{
          direction: "label_koster",
          open: false,
          pause_message: "Лейбл на каникулах",
          cap_per_30_days: 2,
          cooldown_hours: null,
          tempo_min: 165,
          tempo_max: 180,
          tempo_mode: "refuse",
          promise_days: 10,
          auto_decline_after_days: 5,
          staff_chat_id: "-100777",
          late_message: null,
          updated_at: "2026-11-25T20:00:00.000Z",
          updated_by: "admin",
        }],
      }),
    });
    vi.stubGlobal("fetch", fetch);
    renderPage("/moderator/intake", ModeratorIntakePage);
    await settle();
    expect(fetch.calls).toEqual(["/api/moderator/intake"]);
    const sections = screen.getAllByTestId(/^intake-/);
    expect(sections).toHaveLength(1);
    const card = within(sections[0]);
    expect(card.getByRole("heading", { name: "Костёр Звукозапись" })).toBeTruthy();
    const rows = Object.fromEntries(
      [...sections[0].querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(rows).toEqual({
      "Status": "Paused — «Лейбл на каникулах»",
      "Tracks per artist in 30 days": "2",
      "Between an artist's submissions": "No wait",
      "Tempo window": "165–180 BPM; outside it the track is refused",
      "Response promise": "10 days",
      "Automatic decline": "5 days after the promise",
      "Automatic decline message": "The default text",
      "Staff Telegram chat": "-100777",
    });
    // Read-only: nothing to type into, nothing to save.
    expect(screen.queryAllByRole("textbox")).toHaveLength(0);
    expect(screen.queryAllByRole("button")).toHaveLength(0);
  });
});
