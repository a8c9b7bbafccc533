import { describe, expect, it } from "vitest";
import { AUDIO_WARNING_TEXTS, type WarningInput, warningsFor } from "./warnings.ts";

const clean: WarningInput = { bitrate_kbps: 320, clipped_samples: 0, loudness_lufs: -8, bpm: 174, duration_s: 300 };

describe("warnings", () => {
  it("has none for a clean 320 kbps drum and bass master", () => {
    expect(warningsFor(clean)).toEqual([]);
  });

  it("flags each problem with its code", () => {
    expect(warningsFor({ ...clean, bitrate_kbps: 319 })).toEqual(["low_bitrate"]);
    expect(warningsFor({ ...clean, bitrate_kbps: 128 })).toEqual(["low_bitrate"]);
    expect(warningsFor({ ...clean, clipped_samples: 3 })).toEqual(["clipping"]);
    expect(warningsFor({ ...clean, loudness_lufs: -14.1 })).toEqual(["too_quiet"]);
    expect(warningsFor({ ...clean, loudness_lufs: -14 })).toEqual([]);
    expect(warningsFor({ ...clean, bpm: 140 })).toEqual(["tempo_outside_dnb"]);
    expect(warningsFor({ ...clean, bpm: 190.1 })).toEqual(["tempo_outside_dnb"]);
    expect(warningsFor({ ...clean, bpm: 160 })).toEqual([]);
    expect(warningsFor({ ...clean, bpm: 190 })).toEqual([]);
    expect(warningsFor({ bitrate_kbps: 96, clipped_samples: 10, loudness_lufs: -20, bpm: 120, duration_s: 60 }))
      .toEqual([
        "low_bitrate",
        "clipping",
        "too_quiet",
        "tempo_outside_dnb",
      ]);
  });

  it("calls silence too quiet, but says nothing of loudness or tempo it could not measure", () => {
    expect(warningsFor({ ...clean, loudness_lufs: null })).toEqual(["too_quiet"]);
    expect(warningsFor({ ...clean, loudness_lufs: null, duration_s: 0.3 })).toEqual([]);
    expect(warningsFor({ ...clean, bpm: null })).toEqual([]);
  });

  it("has a Russian text for every code", () => {
    expect(Object.keys(AUDIO_WARNING_TEXTS).sort()).toEqual([
      "clipping",
      "low_bitrate",
      "tempo_outside_dnb",
      // Written by the intake rules' tempo window, not by the analyser (issue 25, decision 0240).
      "tempo_outside_window",
      "too_quiet",
    ]);
    for (const text of Object.values(AUDIO_WARNING_TEXTS)) expect(text).toMatch(/[А-Яа-я]/);
    expect(AUDIO_WARNING_TEXTS.too_quiet).toBe("Тихий мастер (ниже −14 LUFS)");
  });
});
