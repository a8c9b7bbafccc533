import { describe, expect, it } from "vitest";
import { drawWaveform, WAVE_COLORS } from "./waveform.tsx";

/** A 2D context that records the bars drawn. */
function recorder() {
  const bars: Array<{ color: string; x: number; y: number; w: number; h: number }> = [];
  let color = "";
  const ctx = {
    clearRect: () => bars.splice(0),
    set fillStyle(c: string) {
      color = c;
    },
    get fillStyle() {
      return color;
    },
    fillRect: (x: number, y: number, w: number, h: number) => bars.push({ color, x, y, w, h }),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, bars };
}

describe("drawWaveform", () => {
  it("draws one bar per 3 px, each the extent of the peaks under it, the played share in the accent", () => {
    const { ctx, bars } = recorder();
    // 1,000 peaks: silent first half, full scale second half.
    const peaks = Array.from({ length: 1000 }, (_, i) => (i < 500 ? [-0.01, 0.01] : [-1, 1]) as [number, number]);
    drawWaveform(ctx, { width: 300, height: 60, peaks, progress: 0.25, drop: null });
    expect(bars).toHaveLength(100);
    expect(bars.filter((b) => b.color === WAVE_COLORS.played)).toHaveLength(25);
    expect(bars.slice(25).every((b) => b.color === WAVE_COLORS.rest)).toBe(true);
    // Quiet bars are thin around the middle, loud ones fill the height.
    expect(bars[10].h).toBeLessThan(2);
    expect(bars[90]).toMatchObject({ y: 0, h: 60 });
  });

  it("marks the drop with a line across, and without peaks shows a progress line", () => {
    const { ctx, bars } = recorder();
    drawWaveform(ctx, { width: 200, height: 40, peaks: null, progress: 0.5, drop: 0.75 });
    expect(bars).toEqual([
      { color: WAVE_COLORS.rest, x: 0, y: 19, w: 200, h: 2 },
      { color: WAVE_COLORS.played, x: 0, y: 19, w: 100, h: 2 },
      { color: WAVE_COLORS.drop, x: 150, y: 0, w: 2, h: 40 },
    ]);
  });
});
