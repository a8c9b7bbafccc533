/**
 * Makes the release files' decoder fixtures (issue 34) in test/fixtures/audio/master/, once; they are
 * committed and server/audio/analyse-lossless.test.ts reads them:
 *
 *   npx -y deno@2 run -A scripts/make-master-fixtures.ts
 *
 * Needs `ffmpeg` (Debian), the outside reference. Each file is 0.5 s from 4 s into
 * `test/fixtures/audio/fingerprint/Print Artist - Original.mp3`, written by ffmpeg in one container
 * and sample format (`-c:a pcm_s16le`, `pcm_s24le`, `pcm_f32le`, `-rf64 always`, `flac`, AIFF
 * `pcm_s16be`, AIFC `sowt`, 96 kHz, 8-bit, 22.05 kHz); `expected.json` holds what ffmpeg decodes
 * each one to (`-f f32le`): its rate, channels, frames and sample values at a few positions, which
 * the test compares with ours.
 */
const dir = decodeURIComponent(new URL("../test/fixtures/audio/master/", import.meta.url).pathname);
const source = decodeURIComponent(
  new URL("../test/fixtures/audio/fingerprint/Print Artist - Original.mp3", import.meta.url).pathname,
);

const FILES: Array<{ name: string; args: string[]; rate: number; channels: number }> = [
  { name: "pcm16-44k.wav", args: ["-c:a", "pcm_s16le"], rate: 44100, channels: 2 },
  { name: "pcm24-48k.wav", args: ["-ar", "48000", "-c:a", "pcm_s24le"], rate: 48000, channels: 2 },
  { name: "float32-44k.wav", args: ["-c:a", "pcm_f32le"], rate: 44100, channels: 2 },
  { name: "rf64-pcm16-44k.wav", args: ["-rf64", "always", "-c:a", "pcm_s16le"], rate: 44100, channels: 2 },
  { name: "pcm24-44k.flac", args: ["-c:a", "flac", "-sample_fmt", "s32"], rate: 44100, channels: 2 },
  { name: "pcm16-48k.flac", args: ["-ar", "48000", "-c:a", "flac", "-sample_fmt", "s16"], rate: 48000, channels: 2 },
  { name: "pcm16-44k.aiff", args: ["-c:a", "pcm_s16be"], rate: 44100, channels: 2 },
  {
    name: "pcm24-mono-48k.aif",
    args: ["-ar", "48000", "-ac", "1", "-c:a", "pcm_s24be", "-f", "aiff"],
    rate: 48000,
    channels: 1,
  },
  { name: "sowt-44k.aifc", args: ["-c:a", "pcm_s16le", "-f", "aiff"], rate: 44100, channels: 2 },
  { name: "pcm24-96k.wav", args: ["-ar", "96000", "-c:a", "pcm_s24le"], rate: 96000, channels: 2 },
  { name: "pcm8-44k.wav", args: ["-c:a", "pcm_u8"], rate: 44100, channels: 2 },
  { name: "pcm16-22k.wav", args: ["-ar", "22050", "-c:a", "pcm_s16le"], rate: 22050, channels: 2 },
];

/** Frames whose samples are recorded. */
const AT = [0, 1, 100, 1000, 5000, 10000, 20000];

async function run(args: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command("ffmpeg", {
    args: ["-v", "error", "-y", ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) throw new Error(`ffmpeg ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return out.stdout;
}

const expected: Record<string, unknown> = {};
for (const f of FILES) {
  const path = `${dir}${f.name}`;
  await run(["-ss", "4", "-t", "0.5", "-i", source, ...f.args, path]);
  const raw = await run(["-i", path, "-f", "f32le", "-c:a", "pcm_f32le", "-"]);
  const samples = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const frames = samples.length / f.channels;
  expected[f.name] = {
    rate: f.rate,
    channels: f.channels,
    frames,
    samples: AT.filter((i) => i < frames).map((
      i,
    ) => [i, ...Array.from({ length: f.channels }, (_, c) => samples[i * f.channels + c])]),
  };
}
await Deno.writeTextFile(`${dir}expected.json`, JSON.stringify(expected, null, 1) + "\n");
console.log(`wrote ${FILES.length} files and expected.json to ${dir}`);
