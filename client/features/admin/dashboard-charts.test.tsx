// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DownloadPie, HorizontalBars, TimelineChart, timelineBarHeight } from "./dashboard-charts.tsx";

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
