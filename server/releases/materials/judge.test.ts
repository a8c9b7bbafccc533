import { describe, expect, it } from "vitest";
import type { PcmFormat } from "../../audio/pcm-container.ts";
import type { LosslessFacts } from "../../audio/analyse-lossless.ts";
import { compareFingerprints, formatProblem, judge, MATERIAL_REASONS } from "./judge.ts";

const format = (over: Partial<PcmFormat> = {}): PcmFormat => ({
  container: "wav",
  encoding: "int",
  bits: 24,
  sampleRate: 48_000,
  channels: 2,
  declaredFrames: null,
  ...over,
});

/** Codes with sound, deterministic (xorshift), `n` long. */
function codes(n: number, seed = 1): Uint32Array {
  const out = new Uint32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = (s >>> 0) || 1;
  }
  return out;
}

const facts = (over: Partial<LosslessFacts> = {}): LosslessFacts => ({
  format: format(),
  duration_s: 200,
  loudness_lufs: -9,
  true_peak_dbtp: -1,
  clipped_samples: 0,
  cut: false,
  fingerprint: codes(500),
  ...over,
});

describe("a release file's format", () => {
  it("takes 44.1 and 48 kHz and higher rates; refuses the others", () => {
    for (const rate of [44_100, 48_000, 88_200, 96_000, 176_400, 192_000]) {
      expect(formatProblem(format({ sampleRate: rate }))).toBeNull();
    }
    expect(formatProblem(format({ sampleRate: 32_000 }))).toBe(
      "Частота дискретизации 32 кГц не подходит: нужна 44,1 или 48 кГц (выше тоже можно).",
    );
    for (const rate of [8_000, 22_050, 47_999, 400_000]) {
      expect(formatProblem(format({ sampleRate: rate }))).toMatch(/^Частота/);
    }
  });

  it("takes PCM 16 and 24 bits and 32-bit float; refuses other depths", () => {
    expect(formatProblem(format({ bits: 16 }))).toBeNull();
    expect(formatProblem(format({ bits: 32, encoding: "float" }))).toBeNull();
    expect(formatProblem(format({ bits: 8 }))).toMatch(/^Разрядность 8 бит не подходит/);
    expect(formatProblem(format({ bits: 32 }))).toMatch(/^Разрядность 32 бит не подходит/);
    expect(formatProblem(format({ bits: 64, encoding: "float" }))).toMatch(/^Разрядность 64 бит с плавающей точкой/);
  });

  it("takes mono and stereo only", () => {
    expect(formatProblem(format({ channels: 1 }))).toBeNull();
    expect(formatProblem(format({ channels: 6 }))).toBe("В файле 6 каналов: нужен стерео- или моно-файл.");
  });
});

describe("a release file against its demo", () => {
  const demo = { duration_s: 200, fingerprint: codes(500) };

  it("finds the recording at any offset, and not another", () => {
    const late = new Uint32Array(600);
    late.set(codes(500), 100);
    expect(compareFingerprints(demo.fingerprint, late)).toMatchObject({ same: true, ber: 0 });
    expect(compareFingerprints(demo.fingerprint, codes(500, 99))).toMatchObject({ same: false });
    expect(compareFingerprints(null, late)).toEqual({ same: null, ber: null, offset_s: null });
    expect(compareFingerprints(codes(20), late)).toMatchObject({ same: null });
  });

  it("holds a master and an instrumental within 5 s of the demo, an extended mix not shorter", () => {
    expect(judge("master", facts({ duration_s: 205 }), demo, 30).state).toBe("accepted");
    expect(judge("master", facts({ duration_s: 194.9 }), demo, 30).reason).toMatch(/^Длительность файла 3:15/);
    expect(judge("instrumental", facts({ duration_s: 206 }), demo, 30).reason).toMatch(/инструментал той же версии/);
    expect(judge("extended", facts({ duration_s: 320 }), demo, 30).state).toBe("accepted");
    expect(judge("extended", facts({ duration_s: 190 }), demo, 30).reason).toBe(
      "Extended-версия (3:10) короче принятого демо (3:20): она должна быть длиннее.",
    );
  });

  it("refuses another recording, silence and a file past the longest; flags a hot true peak", () => {
    expect(judge("master", facts({ fingerprint: codes(500, 5) }), demo, 30).reason).toBe(
      MATERIAL_REASONS.notSameRecording,
    );
    expect(judge("master", facts({ true_peak_dbtp: null }), demo, 30).reason).toBe(MATERIAL_REASONS.silent);
    expect(judge("master", facts({ cut: true }), demo, 30).reason).toBe(
      "Файл длиннее 30 мин: такие длинные файлы не принимаются.",
    );
    const hot = judge("master", facts({ true_peak_dbtp: 0 }), demo, 30);
    expect(hot).toMatchObject({ state: "accepted", report: { flags: ["true_peak_over"] } });
    expect(judge("master", facts({ true_peak_dbtp: -0.1 }), demo, 30).report!.flags).toEqual([]);
    // No fingerprint to compare: taken, and staff told.
    expect(judge("master", facts(), { duration_s: 200, fingerprint: null }, 30)).toMatchObject({
      state: "accepted",
      report: { flags: ["fingerprint_unavailable"] },
    });
  });
});
