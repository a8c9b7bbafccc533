import { describe, expect, it } from "vitest";
import {
  analyseMp3,
  AUDIO_DECODE_ERRORS,
  type AudioAnalysis,
  AudioDecodeError,
  MAX_LEADING_JUNK,
} from "./analyse-mp3.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);

/** The fixture as a file stream, the way stored tracks are read. */
async function analyseFixture(name: string) {
  const file = await Deno.open(new URL(name, FIXTURES));
  return await analyseMp3(file.readable);
}

async function* chunks(data: Uint8Array, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const cache = new Map<string, Promise<AudioAnalysis>>();
const analysed = (name: string) => {
  if (!cache.has(name)) cache.set(name, analyseFixture(name));
  return cache.get(name)!;
};

describe("analyseMp3 on the real fixtures", () => {
  it("reads the 8 s 320 kbps CBR 44.1 kHz stereo file", async () => {
    const a = await analysed("Test Artist - Amen Study.mp3");
    expect(a).toMatchObject({ bitrate_kbps: 320, bitrate_mode: "cbr", sample_rate_hz: 44100, channels: 2 });
    // The LAME Info frame gives the encoder delay and padding: exactly 8 s of samples, not 308 frames.
    expect(a.duration_s).toBeCloseTo(8, 2);
    // Its content is a 220 Hz sine left and a 330 Hz sine right at -6 dBFS: each channel's mean
    // square is 0.125, K-weighting leaves such tones almost untouched, so -0.691 + 10·log10(0.25).
    expect(Math.abs(a.loudness_lufs! - (-0.691 + 10 * Math.log10(0.25)))).toBeLessThan(0.2);
    expect(a.true_peak_dbtp).toBeCloseTo(-6, 0);
    expect(a.clipped_samples).toBe(0);
    expect(a.bpm).toBeNull(); // steady tones: no beat
    expect(a.drop_s).toBeNull();
    expect(a.warnings).toEqual([]);
  });

  it("gives about 1,000 waveform pairs within -1..1", async () => {
    const a = await analysed("Test Artist - Amen Study.mp3");
    expect(a.peaks).toHaveLength(1000);
    for (const [lo, hi] of a.peaks) {
      expect(lo).toBeGreaterThanOrEqual(-1);
      expect(hi).toBeLessThanOrEqual(1);
      expect(lo).toBeLessThanOrEqual(hi);
    }
    // A steady -6 dBFS tone: every slice spans about ±0.5.
    expect(Math.max(...a.peaks.map(([, hi]) => hi))).toBeCloseTo(0.5, 1);
    expect(Math.min(...a.peaks.slice(10, 990).map(([, hi]) => hi))).toBeGreaterThan(0.45);
  });

  it("warns of the 128 kbps file's bitrate", async () => {
    const a = await analysed("Low Rate - 128 kbps.mp3");
    expect(a).toMatchObject({ bitrate_kbps: 128, bitrate_mode: "cbr", sample_rate_hz: 44100 });
    expect(a.warnings).toContain("low_bitrate");
  });

  it("tells a VBR file and gives its average bitrate", async () => {
    const a = await analysed("VBR Artist - Variable.mp3");
    expect(a.bitrate_mode).toBe("vbr");
    // The average over the audio frames (308 of 1152 samples at 44.1 kHz): close to the whole
    // file's bytes × 8 / 8.046 s, less the tags and the Xing frame.
    const bytes = (await Deno.stat(new URL("VBR Artist - Variable.mp3", FIXTURES))).size;
    const fileAverage = (bytes * 8) / ((308 * 1152) / 44100) / 1000;
    expect(a.bitrate_kbps).toBeLessThanOrEqual(fileAverage);
    expect(a.bitrate_kbps).toBeGreaterThan(fileAverage - 3);
    expect(a.duration_s).toBeCloseTo(8, 1);
  });

  it("reads the 48 kHz mono file as one channel", async () => {
    const a = await analysed("Mono Artist - 48k Mono.mp3");
    expect(a).toMatchObject({ sample_rate_hz: 48000, channels: 1, bitrate_kbps: 320, bitrate_mode: "cbr" });
    expect(a.duration_s).toBeCloseTo(5, 1);
    expect(a.loudness_lufs).not.toBeNull();
  });

  it("gives a truncated file its real, short length without failing", async () => {
    const a = await analysed("Cut Artist - Truncated.mp3");
    expect(a.duration_s).toBeGreaterThan(0.3);
    expect(a.duration_s).toBeLessThan(0.5); // 17 whole frames of 26 ms, not the 8 s its Info frame claims
    expect(a.bpm).toBeNull();
    expect(a.bitrate_kbps).toBe(320);
  });

  it("finds tempo, drop and clipping in a decoded drum and bass loop", async () => {
    // Synthetic, 174 BPM, hats only until 6 s, then kick, snare and sub clipped ~6 dB hot
    // (test/fixtures/audio/make-synth-clipped-drop.ts), through LAME at 96 kbps and back.
    const a = await analysed("Synth Artist - Clipped Drop.mp3");
    expect(a).toMatchObject({ bitrate_kbps: 96, bitrate_mode: "cbr", sample_rate_hz: 44100, channels: 1 });
    expect(a.duration_s).toBeCloseTo(16, 1);
    expect(Math.abs(a.bpm! - 174)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(a.drop_s! - 6)).toBeLessThanOrEqual(0.3);
    expect(a.clipped_samples).toBeGreaterThan(0);
    expect(a.true_peak_dbtp).toBeGreaterThan(0);
    expect(a.loudness_lufs).toBeGreaterThan(-14);
    expect(a.warnings).toEqual(["low_bitrate", "clipping"]);
    // The waveform: the intro's share (6/16 of 1,000 pairs) holds only hats; the body swings rail
    // to rail.
    const spans = a.peaks.map(([lo, hi]) => hi - lo);
    expect(Math.max(...spans.slice(0, 370))).toBeLessThan(1);
    const body = spans.slice(380);
    expect(body.reduce((x, y) => x + y, 0) / body.length).toBeGreaterThan(1);
    expect(Math.max(...body)).toBeGreaterThan(1.9);
  });

  it.each(["Text Artist - Not Audio.mp3", "Wave Artist - Renamed Wave.mp3"])(
    "refuses %s with a typed error and a Russian reason",
    async (name) => {
      const err = await analyseFixture(name).then(() => null, (e) => e);
      expect(err).toBeInstanceOf(AudioDecodeError);
      expect(err.code).toBe("not_mp3");
      expect(err.message).toBe(AUDIO_DECODE_ERRORS.not_mp3);
      expect(err.message).toMatch(/^Файл не удалось декодировать как MP3/);
    },
  );

  it("stops reading a large file with no MPEG frames after the first MiB", async () => {
    const text = new TextEncoder().encode("Это не музыка. ".repeat(4096)); // ~100 KB a chunk
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        pulled += text.length;
        if (pulled > 50 * 1024 * 1024) ctrl.close();
        else ctrl.enqueue(text);
      },
    });
    const err = await analyseMp3(stream).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.code).toBe("not_mp3");
    expect(pulled).toBeLessThan(MAX_LEADING_JUNK + 4 * text.length);
  });

  it("refuses an empty stream", async () => {
    const err = await analyseMp3(chunks(new Uint8Array(0), 1)).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.code).toBe("empty");
  });

  it("gives the same analysis from an async iterable of small chunks", async () => {
    const data = await Deno.readFile(new URL("Low Rate - 128 kbps.mp3", FIXTURES));
    const a = await analyseMp3(chunks(data, 999));
    expect(a).toEqual(await analysed("Low Rate - 128 kbps.mp3"));
  });
});
