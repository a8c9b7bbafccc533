// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ReviewBadges } from "./review-badges.tsx";
import { REVIEW_TEXTS_EN } from "../texts/review-texts.ts";
import { ReviewTextsContext } from "../texts/review-texts-context.ts";
import type { StaffTrackRow } from "../../../lib/staff-queries.ts";

afterEach(cleanup);

const row = (over: Record<string, unknown>) =>
  ({
    id: 1,
    directions: "label_koster,show_neurogon",
    status: "completed",
    decisions: [
      { direction: "label_koster", status: "accepted" },
      { direction: "show_neurogon", status: "new" },
    ],
    waiting_days: null,
    overdue: false,
    ...over,
  }) as unknown as StaffTrackRow;

describe("ReviewBadges", () => {
  it("names each direction with its review state in Russian", () => {
    render(<ReviewBadges track={row({})} directionLabel={(d) => d.toUpperCase()} locale="en-US" />);
    const badges = [...screen.getByTestId("review-badges").children].map((b) => b.textContent);
    expect(badges).toEqual(["LABEL_KOSTER· Принят", "SHOW_NEUROGON· Новый"]);
    expect(screen.queryByTestId("overdue")).toBeNull();
  });

  it("flags a track waiting more than 14 days, in the panel's language", () => {
    // The moderator's pages provide the English dictionary (issue 31); states are English too.
    render(
      <ReviewTextsContext value={REVIEW_TEXTS_EN}>
        <ReviewBadges track={row({ overdue: true, waiting_days: 15 })} directionLabel={(d) => d} locale="en-US" />
      </ReviewTextsContext>,
    );
    expect(screen.getByTestId("overdue").textContent).toBe("Waiting 15 days");
    expect(screen.getByTestId("review-badges").textContent).not.toMatch(/[А-яЁё]/);
    cleanup();
    render(<ReviewBadges track={row({ overdue: true, waiting_days: 20 })} directionLabel={(d) => d} locale="ru-RU" />);
    expect(screen.getByTestId("overdue").textContent).toBe("Ждёт 20 дн.");
  });

  it("says «Просрочен» on each pair past its response promise (issue 25)", () => {
    render(
      <ReviewBadges
        track={row({
          decisions: [
            { direction: "label_koster", status: "listened", overdue: true, respond_by: "2026-11-01T00:00:00.000Z" },
            { direction: "show_neurogon", status: "new", overdue: false, respond_by: "2026-12-20T00:00:00.000Z" },
          ],
        })}
        directionLabel={(d) => d}
        locale="en-US"
      />,
    );
    const badges = [...screen.getByTestId("review-badges").children].map((b) => b.textContent);
    expect(badges).toEqual(["label_koster· Прослушан· Просрочен", "show_neurogon· Новый"]);
    expect(screen.getAllByTestId("pair-overdue")).toHaveLength(1);
  });

  it("shows no state for a failed upload (never under review)", () => {
    render(<ReviewBadges track={row({ status: "failed", decisions: [] })} directionLabel={(d) => d} locale="ru-RU" />);
    expect([...screen.getByTestId("review-badges").children].map((b) => b.textContent)).toEqual([
      "label_koster",
      "show_neurogon",
    ]);
  });
});
