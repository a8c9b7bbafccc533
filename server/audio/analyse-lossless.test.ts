import { describe, expect, it } from "vitest";
import { analyseLossless } from "./analyse-lossless.ts";
import { PcmDecodeError, type PcmFormat } from "./pcm-container.ts";

const dir = decodeURIComponent(new URL("../../test/fixtures/audio/master/", import.meta.url).pathname);
const expected: Record<string, { rate: number; channels: number; frames: number; samples: number[][] }> = JSON
  .parse(await Deno.readTextFile(`${dir}expected.json`));

/** The file in uneven chunks, so every header and frame is split somewhere. */
async function* chunks(bytes: Uint8Array, size = 1021): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function decode(name: string, size?: number) {
  const bytes = await Deno.readFile(`${dir}${name}`);
  const planes: number[][] = [];
  let format: PcmFormat | null = null;
  const facts = await analyseLossless(chunks(bytes, size), {
    onFormat: (f) => {
      format = f;
      return true;
    },
    onBlock: (p, n) => {
      p.forEach((c, i) => (planes[i] ??= []).push(...c.subarray(0, n)));
    },
  });
  return { facts: facts!, format: format!, planes };
}

describe("release files decoded as ffmpeg decodes them (test/fixtures/audio/master)", () => {
  const cases: Array<[string, Partial<PcmFormat>, number]> = [
    ["pcm16-44k.wav", { container: "wav", encoding: "int", bits: 16 }, 1 / 32768],
    ["pcm24-48k.wav", { container: "wav", encoding: "int", bits: 24 }, 1 / 8388608],
    ["float32-44k.wav", { container: "wav", encoding: "float", bits: 32 }, 1e-7],
    ["rf64-pcm16-44k.wav", { container: "rf64", encoding: "int", bits: 16 }, 1 / 32768],
    ["pcm24-44k.flac", { container: "flac", encoding: "int", bits: 24 }, 1 / 8388608],
    ["pcm16-48k.flac", { container: "flac", encoding: "int", bits: 16 }, 1 / 32768],
    ["pcm16-44k.aiff", { container: "aiff", encoding: "int", bits: 16 }, 1 / 32768],
    ["pcm24-mono-48k.aif", { container: "aiff", encoding: "int", bits: 24, channels: 1 }, 1 / 8388608],
    ["sowt-44k.aifc", { container: "aifc", encoding: "int", bits: 16 }, 1 / 32768],
    ["pcm24-96k.wav", { container: "wav", encoding: "int", bits: 24 }, 1 / 8388608],
    ["pcm8-44k.wav", { container: "wav", encoding: "int", bits: 8 }, 1 / 128],
    ["pcm16-22k.wav", { container: "wav", encoding: "int", bits: 16 }, 1 / 32768],
  ];
  for (const [name, format, step] of cases) {
    it(name, async () => {
      const want = expected[name];
      for (const size of [1021, 65536]) {
        const { facts, format: got, planes } = await decode(name, size);
        expect(got).toMatchObject({ ...format, sampleRate: want.rate, channels: want.channels });
        expect(planes[0].length).toBe(want.frames);
        expect(facts.duration_s).toBeCloseTo(want.frames / want.rate, 3);
        for (const [i, ...values] of want.samples) {
          values.forEach((v, c) => expect(Math.abs(planes[c][i] - v)).toBeLessThanOrEqual(step));
        }
      }
    });
  }

  it("stops before decoding when the format is refused", async () => {
    let blocks = 0;
    const facts = await analyseLossless(chunks(await Deno.readFile(`${dir}pcm8-44k.wav`)), {
      onFormat: () => false,
      onBlock: () => blocks++,
    });
    expect(facts).toBeNull();
    expect(blocks).toBe(0);
  });

  it("stops at maxSeconds and says so", async () => {
    const facts = await analyseLossless(chunks(await Deno.readFile(`${dir}pcm16-44k.wav`)), { maxSeconds: 0.2 });
    expect(facts!.cut).toBe(true);
    expect(facts!.duration_s).toBeCloseTo(0.2, 3);
  });

  it("names what is wrong with bytes that are not a release file", async () => {
    const code = (bytes: Uint8Array) =>
      analyseLossless(chunks(bytes)).then(() => "decoded", (e) => (e instanceof PcmDecodeError ? e.code : String(e)));
    expect(await code(new Uint8Array(0))).toBe("empty");
    expect(await code(new TextEncoder().encode("just some text, not audio at all, long enough".repeat(10)))).toBe(
      "unknown",
    );
    const mp3 = await Deno.readFile(
      decodeURIComponent(
        new URL("../../test/fixtures/audio/fingerprint/Print Artist - Original.mp3", import.meta.url).pathname,
      ),
    );
    expect(await code(mp3)).toBe("unknown");
    const wav = await Deno.readFile(`${dir}pcm16-44k.wav`);
    expect(await code(wav.slice(0, 40))).toBe("broken");
    // A WAV whose format tag is MP3 inside RIFF (0x55).
    const odd = wav.slice();
    odd[20] = 0x55;
    expect(await code(odd)).toBe("codec");
    // A FLAC cut inside its header.
    expect(await code((await Deno.readFile(`${dir}pcm16-48k.flac`)).slice(0, 30))).toBe("broken");
  });
});
