import { describe, expect, it } from "vitest";
import { FIXTURES, fixture } from "../../testing/upload-helpers.ts";
import { createMpegScanner } from "./mpeg-scan.ts";

function scan(data: Uint8Array, chunk = data.byteLength || 1) {
  const s = createMpegScanner();
  for (let i = 0; i < data.byteLength; i += chunk) s.push(data.subarray(i, i + chunk));
  return s.finish();
}

describe("MPEG layer III frame count", () => {
  it.each(Object.values(FIXTURES))("counts %s the same whatever the chunk size", (name) => {
    const data = fixture(name);
    const whole = scan(data);
    for (const size of [1, 3, 7, 40, 41, 1000, 4096]) expect(scan(data, size)).toEqual(whole);
  });

  it("gives the real length, leaving out the Xing/Info frame and the ID3 tag", () => {
    // 8 s fixtures: 308 frames of 1152 samples at 44.1 kHz = 8.0457 s, as their Info headers say.
    for (const name of [FIXTURES.amen, FIXTURES.low, FIXTURES.vbr]) {
      const r = scan(fixture(name));
      expect(r.frames).toBe(308);
      expect(r.seconds).toBeCloseTo((308 * 1152) / 44100, 6);
    }
    expect(scan(fixture(FIXTURES.mono))).toMatchObject({ frames: 210, seconds: 5.04 });
  });

  it("counts only the whole frames of a cut-off file", () => {
    const r = scan(fixture(FIXTURES.cut));
    expect(r.frames).toBe(17);
    expect(r.seconds).toBeLessThan(0.5);
    const amen = fixture(FIXTURES.amen);
    const whole = scan(amen);
    // Cutting into the last frame (past the 128-byte ID3v1 tag) loses exactly that frame.
    expect(scan(amen.subarray(0, amen.byteLength - 129)).frames).toBe(whole.frames - 1);
  });

  it("finds no frames in a WAV file, text, or nothing", () => {
    expect(scan(fixture(FIXTURES.wave)).frames).toBe(0);
    expect(scan(fixture(FIXTURES.text)).frames).toBe(0);
    expect(scan(new Uint8Array()).frames).toBe(0);
    expect(scan(new Uint8Array(5)).frames).toBe(0);
  });

  it("finds the frames again after junk", () => {
    const low = fixture(FIXTURES.low);
    const junk = new TextEncoder().encode("some junk that is not audio at all ".repeat(30));
    const data = new Uint8Array(junk.byteLength + low.byteLength);
    data.set(junk);
    data.set(low, junk.byteLength);
    expect(scan(data, 500).frames).toBe(scan(low).frames);
  });
});
