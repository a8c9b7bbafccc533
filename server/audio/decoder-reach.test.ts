/**
 * The rest of the decoder's reach (issue 22, docs/decisions/0218): MPEG-2.5 at 8, 11.025 and 12 kHz
 * reads its tempo, every filter is designed below the Nyquist frequency of the rate it runs at, and
 * free-format MP3s (bitrate index 0) are decoded instead of refused as "not MP3". The fixtures are
 * made by test/fixtures/audio/make-decoder-reach.ts.
 */
import { describe, expect, it } from "vitest";
import { analyseMp3, AUDIO_DECODE_ERRORS, AudioDecodeError } from "./analyse-mp3.ts";
import { passFilter } from "./band-envelopes.ts";
import { isStableBiquad, kWeightingFilters } from "./loudness.ts";
import {
  createFrameSplitter,
  FREE_FORMAT_MAX_LENGTH,
  FREE_FORMAT_SEARCH_BUDGET,
  parseFrameHeader,
} from "./mpeg-frames.ts";
import { bytesOf, freeFormatBomb } from "../testing/hostile-mp3.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);
const read = (name: string) => Deno.readFileSync(new URL(name, FIXTURES));

async function* chunks(data: Uint8Array, size = 64 * 1024) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/** Every sample rate an MP3 can have (MPEG-1, MPEG-2, MPEG-2.5). */
const MPEG_RATES = [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000];

describe("filters at every MPEG sample rate", () => {
  it.each(MPEG_RATES)("every biquad designed for %d Hz is stable", (rate) => {
    for (const f of kWeightingFilters(rate)) expect(isStableBiquad(f)).toBe(true);
    // The band envelopes run at half the rate: the 150 Hz low band's two sections.
    for (const q of [0.5411961, 1.306563]) expect(isStableBiquad(passFilter("low", 150, q, rate / 2))).toBe(true);
  });

  it("designs a band edge above the Nyquist frequency below it instead of unstable", () => {
    // The old mid band's 4 kHz low-pass at 11.025 kHz's half rate: a2 was 5.64.
    for (const rate of [4000, 5512.5, 6000]) {
      for (const kind of ["low", "high"] as const) {
        const f = passFilter(kind, 4000, Math.SQRT1_2, rate);
        expect(isStableBiquad(f)).toBe(true);
        expect(Math.abs(f.a2)).toBeLessThan(1);
      }
    }
  });
});

describe("MPEG-2.5 at 8, 11.025 and 12 kHz", () => {
  it.each([
    ["Low Rate - MPEG-2.5 8 kHz.mp3", 8000, 170],
    ["Low Rate - MPEG-2.5 11 kHz.mp3", 11025, 174],
    ["Low Rate - MPEG-2.5 12 kHz.mp3", 12000, 172],
  ])("%s: the two-step groove's tempo within 1 BPM, and a finite loudness", async (name, rate, bpm) => {
    const a = await analyseMp3(chunks(read(name)));
    expect(a.sample_rate_hz).toBe(rate);
    expect(a.channels).toBe(1);
    expect(a.duration_s).toBeGreaterThan(14.9);
    expect(a.bpm).not.toBeNull();
    expect(Math.abs(a.bpm! - bpm)).toBeLessThanOrEqual(1);
    expect(Number.isFinite(a.loudness_lufs)).toBe(true);
    // The groove is made at about -18 LUFS; a filter gone unstable reads hundreds of dB.
    expect(Math.abs(a.loudness_lufs! + 18)).toBeLessThan(1.5);
    expect(a.true_peak_dbtp!).toBeLessThan(0);
    expect(a.drop_s).not.toBeNull();
    expect(Math.abs(a.drop_s! - 6)).toBeLessThanOrEqual(1);
  });
});

describe("free-format MP3 (bitrate index 0)", () => {
  const FREE = "Free Artist - Free Format.mp3";

  it("is decoded: the whole 8 s, its tempo and a sane level", async () => {
    const a = await analyseMp3(chunks(read(FREE)));
    expect(a).toMatchObject({ bitrate_kbps: 80, bitrate_mode: "cbr", sample_rate_hz: 44100, channels: 1 });
    // LAME's Info frame (itself free format) gives the encoder delay and padding: exactly 8 s.
    expect(a.duration_s).toBeCloseTo(8, 2);
    expect(Math.abs(a.bpm! - 174)).toBeLessThanOrEqual(1);
    // Frames decoded at the wrong length are noise far over full scale (+20 dBTP); these are the
    // groove at about -19 LUFS.
    expect(a.clipped_samples).toBe(0);
    expect(a.true_peak_dbtp!).toBeLessThan(0);
    expect(Math.abs(a.loudness_lufs! + 19)).toBeLessThan(1.5);
  });

  it("hands the decoder the file's own frames, only the bitrate index written in", () => {
    const data = read(FREE);
    for (const size of [data.length, 4096, 997]) {
      const s = createFrameSplitter();
      const parts: Uint8Array[] = [];
      for (let i = 0; i < data.length; i += size) parts.push(s.push(data.subarray(i, i + size)).slice());
      parts.push(s.finish().slice());
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((o, p) => (out.set(p, o), o + p.length), 0);
      expect(out.length).toBe(data.length);
      expect(s.stats).toMatchObject({ frames: 308, tagFrame: true, declaredFrames: 308, constantBitrate: true });
      // Frame by frame: 80 kbps (index 6) in each header, every other byte as in the file.
      for (let at = 0; at < out.length;) {
        const h = parseFrameHeader(out, at)!;
        expect(h.bitrateKbps).toBe(80);
        expect(out[at + 2] & 0x0f).toBe(data[at + 2] & 0x0f);
        expect(data[at + 2] >> 4).toBe(0);
        expect(out.subarray(at + 3, at + h.length)).toEqual(data.subarray(at + 3, at + h.length));
        at += h.length;
      }
      // The caller's bytes are left as they came (they are hashed and stored).
      expect(data[2] >> 4).toBe(0);
    }
  });

  it("refuses a free format no standard bitrate matches with its own reason, not as 'not MP3'", async () => {
    // Silent MPEG-1 44.1 kHz mono frames of 300 bytes (91.9 kbps; no standard frame is 300 bytes).
    const frame = new Uint8Array(300);
    frame.set([0xff, 0xfb, 0x00, 0xc4]);
    const file = new Uint8Array(frame.length * 100);
    for (let i = 0; i < 100; i++) file.set(frame, i * frame.length);
    const err = await analyseMp3(chunks(file)).catch((e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.code).toBe("free_format");
    expect(err.message).toBe(AUDIO_DECODE_ERRORS.free_format);
  });

  it("bounds the search for free-format lengths on a crafted file of unconfirmed headers", async () => {
    const bomb = await bytesOf(freeFormatBomb(2 * 1024 * 1024));
    const s = createFrameSplitter();
    for (let i = 0; i < bomb.length; i += 64 * 1024) s.push(bomb.subarray(i, i + 64 * 1024));
    s.finish();
    expect(s.stats.frames).toBe(0);
    expect(s.stats.freeFormatSearchedBytes).toBeGreaterThan(0);
    expect(s.stats.freeFormatSearchedBytes).toBeLessThanOrEqual(FREE_FORMAT_SEARCH_BUDGET + FREE_FORMAT_MAX_LENGTH);
    await expect(analyseMp3(freeFormatBomb(2 * 1024 * 1024).chunks())).rejects.toMatchObject({ code: "not_mp3" });
  });
});
