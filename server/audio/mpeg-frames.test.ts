import { describe, expect, it } from "vitest";
import { createFrameSplitter, parseFrameHeader } from "./mpeg-frames.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);
const fixture = (name: string) => Deno.readFileSync(new URL(name, FIXTURES));
const MP3S = [
  "Test Artist - Amen Study.mp3",
  "Low Rate - 128 kbps.mp3",
  "VBR Artist - Variable.mp3",
  "Mono Artist - 48k Mono.mp3",
  "Cut Artist - Truncated.mp3",
];

function split(data: Uint8Array, chunk = data.length || 1) {
  const s = createFrameSplitter();
  const parts: Uint8Array[] = [];
  // A reused buffer, as a file reader would hand out: output must not point into it after the call.
  const buf = new Uint8Array(chunk);
  for (let i = 0; i < data.length; i += chunk) {
    const piece = data.subarray(i, i + chunk);
    buf.set(piece);
    parts.push(s.push(buf.subarray(0, piece.length)).slice());
  }
  parts.push(s.finish().slice());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { out, stats: { ...s.stats } };
}

describe("MPEG layer III frame headers", () => {
  it("reads version, bitrate, sample rate, channels and length", () => {
    const h = (...b: number[]) => parseFrameHeader(Uint8Array.from(b), 0);
    expect(h(0xff, 0xfb, 0x90, 0x64)).toMatchObject({
      version: 3,
      bitrateKbps: 128,
      sampleRate: 44100,
      channels: 2,
      samples: 1152,
      length: 417,
    });
    expect(h(0xff, 0xfb, 0x92, 0x64)?.length).toBe(418); // padded
    expect(h(0xff, 0xfb, 0xe4, 0xc4)).toMatchObject({ bitrateKbps: 320, sampleRate: 48000, channels: 1, length: 960 });
    expect(h(0xff, 0xf3, 0x94, 0x64)).toMatchObject({
      version: 2,
      bitrateKbps: 80,
      sampleRate: 24000,
      samples: 576,
      length: 240,
    });
    expect(h(0xff, 0xfb, 0xf0, 0x64)).toBeNull(); // bitrate index 15
    expect(h(0xff, 0xfb, 0x00, 0x64)).toBeNull(); // free format, its length not yet known (decoder-reach.test.ts)
    expect(h(0xff, 0xfd, 0x90, 0x64)).toBeNull(); // layer II
    expect(h(0xff, 0xeb, 0x90, 0x64)).toBeNull(); // reserved version
    expect(h(0x49, 0x44, 0x33, 0x04)).toBeNull();
  });
});

describe("frame splitter", () => {
  it.each(MP3S)("passes on the same frames of %s whatever the chunk size", (name) => {
    const data = fixture(name);
    const whole = split(data);
    // One-byte chunks only for the small file: each push copies the frame held so far.
    for (const size of [...(data.length < 30000 ? [1] : []), 3, 41, 1000, 4096, 65536]) {
      const r = split(data, size);
      expect(r.stats).toEqual(whole.stats);
      expect(r.out).toEqual(whole.out);
    }
  });

  it("counts the real length, leaving out the Xing/Info frame, the ID3 tag and a cut-off last frame", () => {
    // The one frame count processing takes a track's length from (issue 20; mpeg-scan.ts is gone).
    // 8 s fixtures: 308 frames of 1152 samples at 44.1 kHz = 8.0457 s, as their Info headers say.
    for (const name of MP3S.slice(0, 3)) {
      const { stats } = split(fixture(name));
      expect(stats.frames).toBe(308);
      expect(stats.samples / stats.sampleRate).toBeCloseTo((308 * 1152) / 44100, 6);
      expect(stats.declaredFrames).toBe(308);
    }
    const mono = split(fixture("Mono Artist - 48k Mono.mp3")).stats;
    expect([mono.frames, mono.samples / mono.sampleRate]).toEqual([210, 5.04]);
    const cut = split(fixture("Cut Artist - Truncated.mp3")).stats;
    expect(cut.frames).toBe(17);
    // Its Info frame still declares the 8 s the whole file had.
    expect(cut.declaredFrames).toBe(308);
    const amen = fixture("Test Artist - Amen Study.mp3");
    // Cutting into the last frame (past the 128-byte ID3v1 tag) loses exactly that frame.
    expect(split(amen.subarray(0, amen.byteLength - 129)).stats.frames).toBe(307);
  });

  it("counts no frame headers in junk that no next header confirms", () => {
    // Four real frames, then header-like junk: a valid header every 100 bytes, never where the
    // header before it says its frame ends. A count that takes every header it meets made a
    // 53-minute track of 4 frames and 49 MB of this (issue 20).
    const low = fixture("Low Rate - 128 kbps.mp3");
    const first = parseFrameHeader(low, 0)!; // the Info frame
    let end = first.length;
    for (let i = 0; i < 4; i++) end += parseFrameHeader(low, end)!.length;
    const junk = new Uint8Array(2 * 1024 * 1024);
    for (let i = 50; i + 4 <= junk.length; i += 100) junk.set(low.subarray(first.length, first.length + 4), i);
    const data = new Uint8Array(end + junk.length);
    data.set(low.subarray(0, end));
    data.set(junk, end);
    for (const size of [4096, 65536]) {
      const { stats } = split(data, size);
      expect(stats.frames).toBe(4);
      expect(stats.samples / stats.sampleRate).toBeCloseTo((4 * 1152) / 44100, 6);
    }
  });

  it("passes every byte from the first frame on, without the ID3 tag, and flags the Info frame", () => {
    const data = fixture("Test Artist - Amen Study.mp3");
    const tagEnd = 10 + ((data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]);
    const { out, stats } = split(data);
    expect(out).toEqual(data.subarray(tagEnd, tagEnd + out.length));
    expect(out.length).toBeGreaterThan(data.length - tagEnd - 1500);
    expect(stats).toMatchObject({
      frames: 308,
      tagFrame: true,
      constantBitrate: true,
      firstBitrateKbps: 320,
      channels: 2,
    });
  });

  it("tells constant from variable bitrate", () => {
    expect(split(fixture("Low Rate - 128 kbps.mp3")).stats).toMatchObject({
      constantBitrate: true,
      firstBitrateKbps: 128,
    });
    expect(split(fixture("VBR Artist - Variable.mp3")).stats.constantBitrate).toBe(false);
  });

  it("skips junk between frames and finds the frames again", () => {
    const data = fixture("Low Rate - 128 kbps.mp3");
    const clean = split(data);
    // 300 bytes of junk (including sync-like 0xFF 0xFB pairs) after the 50th frame boundary.
    let at = 0;
    for (let i = 0; i < 50; i++) at += parseFrameHeader(data, at)!.length;
    const junk = Uint8Array.from(
      { length: 300 },
      (_, i) => (i % 37 === 0 ? 0xff : i % 37 === 1 ? 0xfb : (i * 7) & 0x7f),
    );
    const dirty = new Uint8Array(data.length + junk.length);
    dirty.set(data.subarray(0, at));
    dirty.set(junk, at);
    dirty.set(data.subarray(at), at + junk.length);
    for (const size of [1, 500, dirty.length]) {
      const r = split(dirty, size);
      expect(r.stats).toEqual(clean.stats);
      expect(r.out).toEqual(clean.out);
    }
  });

  it("finds no frames in text or a WAV file", () => {
    for (const name of ["Text Artist - Not Audio.mp3", "Wave Artist - Renamed Wave.mp3"]) {
      const { out, stats } = split(fixture(name), 4096);
      expect(stats.frames).toBe(0);
      expect(out.length).toBe(0);
    }
  });

  it("does not take two lone frame-like headers in junk for MP3", () => {
    const data = fixture("Low Rate - 128 kbps.mp3");
    const two = data.subarray(0, parseFrameHeader(data, 0)!.length * 2);
    const junk = new Uint8Array(1000).fill(0x20);
    const input = new Uint8Array(junk.length + two.length);
    input.set(junk);
    input.set(two, junk.length);
    expect(split(input).stats.frames).toBe(0);
  });
});
