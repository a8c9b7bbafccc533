// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DownloadPie,
  HorizontalBars,
  timelineBarHeight,
  TimelineChart,
  timelineLabelStep,
} from "./dashboard-charts.tsx";

afterEach(cleanup);

const heights = () => screen.getAllByTestId("timeline-bar").map((b) => parseFloat(b.style.height));

describe("timeline chart", () => {
  it("draws each bar 5 + 95 × value / max percent high", () => {
    expect(timelineBarHeight(0, 10)).toBe(5);
    expect(timelineBarHeight(10, 10)).toBe(100);
    expect(timelineBarHeight(5, 10)).toBe(52.5);
    render(<TimelineChart labels={["a", "b", "c", "d"]} data={[0, 2, 4, 8]} />);
    expect(heights()).toEqual([5, 28.75, 52.5, 100]);
  });

  it("says 'Нет данных для отображения' when there is nothing to draw", () => {
    render(<TimelineChart labels={[]} data={[]} />);
    expect(screen.getByText("Нет данных для отображения")).toBeTruthy();
    cleanup();
    render(<TimelineChart labels={["a", "b"]} data={[0, 0]} />);
    expect(screen.getByText("Нет данных для отображения")).toBeTruthy();
    expect(screen.queryAllByTestId("timeline-bar")).toHaveLength(0);
  });
});

describe("timeline chart on a narrow screen", () => {
  const days = Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(2, "0")}.04`);
  const values = days.map((_, i) => (i * 37) % 250);
  const shownLabels = () => [...document.querySelectorAll(".st-chart-label")].map((el) => el.textContent);
  const shownNumbers = () => [...document.querySelectorAll(".st-chart-num")].map((el) => el.textContent);
  let width = 0;
  beforeEach(() => {
    // The test DOM lays nothing out: the chart's box is as wide as the test says.
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockImplementation(() => width);
  });
  afterEach(() => vi.restoreAllMocks());

  it("at phone width names every few days, always the last one, and leaves the numbers to the tooltip", () => {
    width = 320;
    render(<TimelineChart labels={days} data={values} />);
    const labels = shownLabels();
    expect(labels.length).toBeGreaterThan(2);
    expect(labels.length).toBeLessThanOrEqual(8);
    expect(labels[labels.length - 1]).toBe("30.04");
    // Evenly spaced, counted back from the current day.
    const step = days.indexOf(labels[1]!) - days.indexOf(labels[0]!);
    labels.forEach((l, i) => expect(days.indexOf(l!)).toBe(29 - (labels.length - 1 - i) * step));
    expect(shownNumbers()).toEqual([]);
    expect(screen.getByRole("img").getAttribute("aria-label")).toContain("30.04: 73");
    // Every bar is still drawn.
    expect(heights()).toHaveLength(30);
  });

  it("with room for them shows every label of a short period and the numbers above the bars", () => {
    width = 1000;
    render(<TimelineChart labels={days.slice(0, 7)} data={values.slice(0, 7)} />);
    expect(shownLabels()).toEqual(days.slice(0, 7));
    expect(shownNumbers()).toEqual(values.slice(0, 7).map(String));
  });

  it("the step follows the width and the label length", () => {
    expect(timelineLabelStep(days, 0)).toBe(1);
    expect(timelineLabelStep(days, 2000)).toBe(1);
    expect(timelineLabelStep(days, 320)).toBeGreaterThan(3);
    const months = [
      "янв 2025",
      "фев 2025",
      "мар 2025",
      "апр 2025",
      "май 2025",
      "июн 2025",
      "июл 2025",
      "авг 2025",
      "сен 2025",
      "окт 2025",
      "ноя 2025",
      "дек 2025",
    ];
    expect(timelineLabelStep(months, 320)).toBeGreaterThan(timelineLabelStep(days.slice(0, 12), 320));
  });
});

describe("bars and pie", () => {
  it("scales horizontal bars to the given total", () => {
    render(<HorizontalBars scale={8} rows={[{ label: "VK", value: 2 }, { label: "Telegram", value: 8 }]} />);
    expect(screen.getAllByTestId("hbar").map((b) => b.style.width)).toEqual(["25%", "100%"]);
  });
  it("labels the downloaded share", () => {
    render(<DownloadPie downloaded={1} notDownloaded={3} />);
    expect(screen.getByText("25%")).toBeTruthy();
    expect(screen.getByRole("img", { name: "Скачано 1, не скачано 3" })).toBeTruthy();
  });
});
