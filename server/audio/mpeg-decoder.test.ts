import { describe, expect, it } from "vitest";
import { MPEGDecoder } from "mpg123-decoder";
import { analyseMp3 } from "./analyse-mp3.ts";
import { acquireDecoder } from "./mpeg-decoder.ts";
import { createFrameSplitter } from "./mpeg-frames.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);
const read = (name: string) => Deno.readFileSync(new URL(name, FIXTURES));

async function* chunks(data: Uint8Array, size = 64 * 1024) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const analyse = (name: string) => analyseMp3(chunks(read(name)));

describe("pooled mpg123 decoder", () => {
  it("gives the samples the package's own decode gives", async () => {
    const frames = createFrameSplitter().push(read("VBR Artist - Variable.mp3"));
    const reference = new MPEGDecoder();
    await reference.ready;
    const expected = reference.decode(frames);

    const decoder = await acquireDecoder();
    const left: number[] = [];
    const right: number[] = [];
    let rate = 0;
    decoder.decode(frames, (channels, samples, sampleRate) => {
      for (let i = 0; i < samples; i++) {
        left.push(channels[0][i]);
        right.push(channels[1][i]);
      }
      rate = sampleRate;
    });
    decoder.release();

    expect(left.length).toBe(expected.samplesDecoded);
    expect(rate).toBe(expected.sampleRate);
    expect(Float32Array.from(left)).toEqual(expected.channelData[0]);
    expect(Float32Array.from(right)).toEqual(expected.channelData[1]);
  });

  it("keeps nothing from one file to the next: after a refused file, a cut one, or one at another rate", async () => {
    const first = await analyse("Low Rate - 128 kbps.mp3");
    // Decoders given back without decoding anything (each gets a new handle every time).
    for (let round = 0; round < 2; round++) {
      const unused = [await acquireDecoder(), await acquireDecoder(), await acquireDecoder()];
      for (const decoder of unused) decoder.release();
    }
    expect(await analyse("Low Rate - 128 kbps.mp3")).toEqual(first);
    await expect(analyse("Text Artist - Not Audio.mp3")).rejects.toThrow();
    await analyse("Cut Artist - Truncated.mp3");
    await analyse("Mono Artist - 48k Mono.mp3");
    expect(await analyse("Low Rate - 128 kbps.mp3")).toEqual(first);
  });

  it("gives each of several analyses at once its own decoder", async () => {
    const names = ["Low Rate - 128 kbps.mp3", "VBR Artist - Variable.mp3", "Mono Artist - 48k Mono.mp3"];
    const alone: unknown[] = [];
    for (const name of names) alone.push(await analyse(name));
    expect(await Promise.all(names.map(analyse))).toEqual(alone);
  });
});
