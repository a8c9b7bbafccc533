// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  formatWait,
  RESPONSE_FIGURES_TEXTS_EN,
  RESPONSE_FIGURES_TEXTS_RU,
  ResponseFigures,
  type ResponseFiguresData,
} from "./response-figures.tsx";

/** The dashboards' response figures (issue 24, decision 0235): two tables a person can read. */

afterEach(cleanup);

const row = (over: Partial<ResponseFiguresData["by_direction"][number]> = {}) => ({
  received: 5,
  heard: 5,
  decided: 3,
  to_listen: { median_s: 3 * 3600, p90_s: 10 * 3600 },
  to_decision: { median_s: 2 * 86400, p90_s: 16 * 86400 },
  within_promise: { kept: 2, due: 4, share: 0.5 },
  ...over,
});

const FIGURES: ResponseFiguresData = {
  period: { name: "month", from: "2026-10-27T00:00:00.000Z", to: "2026-11-26T00:00:00.000Z" },
  promise_days: 14,
  by_direction: [
    { direction: "label_koster", ...row() },
    {
      direction: "show_neurogon",
      ...row({
        received: 0,
        heard: 0,
        decided: 0,
        to_listen: { median_s: null, p90_s: null },
        to_decision: { median_s: null, p90_s: null },
        within_promise: { kept: 0, due: 0, share: null },
      }),
    },
  ],
  by_staff: [{ user: { id: 7, username: "mod", name: "Мария Модератор" }, ...row({ decided: 1 }) }],
};

const cells = (key: string) => {
  const tr = document.querySelector<HTMLElement>(`[data-testid="figures-${key}"]`)!;
  return Object.fromEntries(
    [...tr.querySelectorAll<HTMLElement>("td")].map((td) => [td.dataset.col, td.textContent]),
  );
};

describe("ResponseFigures", () => {
  it("shows each direction's and each person's figures, waits in hours and days, the share with its counts", () => {
    render(
      <ResponseFigures
        figures={FIGURES}
        directionLabel={(d) => (d === "label_koster" ? "Лейбл Костер" : "Шоу Нейрогон")}
        texts={RESPONSE_FIGURES_TEXTS_RU}
      />,
    );
    const section = screen.getByRole("region", { name: "Скорость ответа" });
    const byDirection = within(section).getByRole("region", { name: "Скорость ответа: По направлениям" });
    expect(within(byDirection).getByRole("rowheader", { name: "Лейбл Костер" })).toBeTruthy();
    expect(cells("label_koster")).toEqual({
      received: "5",
      heard: "5",
      decided: "3",
      "to-listen": "3 ч / 10 ч",
      "to-decision": "2 дн / 16 дн",
      within: "50% (2/4)",
    });
    // Nothing to measure yet: dashes, not zeros.
    expect(cells("show_neurogon")).toMatchObject({ "to-listen": "— / —", within: "—" });
    expect(within(section).getByRole("rowheader", { name: /Мария Модератор/ }).textContent).toContain("@mod");
    expect(cells("user-7").decided).toBe("1");
    // The header says which promise it is.
    expect(within(byDirection).getByRole("columnheader", { name: "Решено за 14 дн." })).toBeTruthy();
  });

  it("each table scrolls inside its own frame (reachable by keyboard), not the page", () => {
    render(<ResponseFigures figures={FIGURES} directionLabel={(d) => d} texts={RESPONSE_FIGURES_TEXTS_EN} />);
    const frames = screen.getAllByRole("region", { name: /^Response times: / });
    expect(frames).toHaveLength(2);
    for (const f of frames) {
      expect(f.classList.contains("st-table-wrap")).toBe(true);
      expect(f.getAttribute("tabindex")).toBe("0");
    }
  });

  it("formats waits as a person reads them", () => {
    const u = RESPONSE_FIGURES_TEXTS_RU.units;
    expect(formatWait(null, u)).toBe("—");
    expect(formatWait(0, u)).toBe("0 мин");
    expect(formatWait(25 * 60, u)).toBe("25 мин");
    expect(formatWait(90 * 60, u)).toBe("1,5 ч");
    expect(formatWait(47 * 3600, u)).toBe("47 ч");
    expect(formatWait(3 * 86400 + 12 * 3600, u)).toBe("3,5 дн");
  });

  it("formats waits in English with a decimal point (issue 31: «14,2 d» read “14.2 d”)", () => {
    const u = RESPONSE_FIGURES_TEXTS_EN.units;
    expect(formatWait(90 * 60, u)).toBe("1.5 h");
    expect(formatWait(14.2 * 86400, u)).toBe("14.2 d");
  });
});
