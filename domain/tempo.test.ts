import { describe, expect, it } from "vitest";
import { foldIntoWindow, foldToDnb, tempoInWindow } from "./tempo.ts";

describe("tempo folding and the window", () => {
  it("folds into 160–190 exactly as the analysis' fold did, tempo by tempo", () => {
    // The fold the analysis had before issue 33, kept here as the reference.
    const before = (bpm: number) => {
      if (bpm < 160 && bpm * 2 >= 160 && bpm * 2 <= 190) return bpm * 2;
      if (bpm > 190 && bpm / 2 >= 160 && bpm / 2 <= 190) return bpm / 2;
      return bpm;
    };
    for (let tenth = 300; tenth <= 4200; tenth++) expect(foldToDnb(tenth / 10)).toBe(before(tenth / 10));
  });

  it("reads a tempo inside a window when it, its double or its half lies there", () => {
    expect(foldIntoWindow(87, 160, 190)).toBe(174);
    expect(foldIntoWindow(348, 160, 190)).toBe(174);
    expect(foldIntoWindow(140, 160, 190)).toBeNull();
    expect(tempoInWindow(87, 160, 190)).toBe(true);
    expect(tempoInWindow(174, 100, 120)).toBe(false);
  });
});
