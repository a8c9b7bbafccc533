/**
 * Makes the fingerprint's version fixtures (issue 38) in test/fixtures/audio/versions/, once; the
 * MP3s are committed and server/audio/fingerprint.test.ts and the lookup tests read them:
 *
 *   npx -y deno@2 run -A scripts/make-version-fixtures.ts
 *
 * Needs `ffmpeg` (Debian; its libmp3lame). The source is 12 s of server/testing/versions.ts's piece
 * (D minor, 172 BPM: drums, bass, pads and a sung-like lead), 44.1 kHz stereo, 16-bit WAV masters,
 * every MP3 at 128 kbps CBR:
 *
 * - `Version Artist - Full Mix.mp3`: all four stems;
 * - `… - Sped Up 2.mp3`, `Sped Up 4`, `Sped Up 6`, `Slowed 2`, `Slowed 4`, `Slowed 6`: the Full Mix
 *   MP3 decoded and played 2, 4 or 6 % faster or slower, pitch and tempo together, as a DJ's pitch
 *   fader or a "sped up" re-upload does (`-af asetrate=44100*1.02,aresample=44100`; not `atempo`);
 * - `… - Instrumental.mp3`: the lead (the vocal) left out; `… - Without Drums.mp3`: the drums left
 *   out; `… - Without Bass.mp3`: the bass left out (versions: not the same recording);
 * - `… - Other Take.mp3`: the same notes played again (each note and hit up to 20 ms off, ±2 dB,
 *   other drum sounds, another vibrato): not the same recording.
 */
import { mixStems, pieceStems, type Stems } from "../server/testing/versions.ts";

const SECONDS = 12;
const FS = 44100;
const dir = new URL("../test/fixtures/audio/versions/", import.meta.url).pathname;

function wav(channels: Float32Array[], fs: number): Uint8Array {
  const n = channels[0].length, c = channels.length;
  const out = new Uint8Array(44 + n * c * 2);
  const v = new DataView(out.buffer);
  const w = (o: number, s: string) => [...s].forEach((ch, i) => (out[o + i] = ch.charCodeAt(0)));
  w(0, "RIFF");
  v.setUint32(4, 36 + n * c * 2, true);
  w(8, "WAVE");
  w(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, c, true);
  v.setUint32(24, fs, true);
  v.setUint32(28, fs * c * 2, true);
  v.setUint16(32, c * 2, true);
  v.setUint16(34, 16, true);
  w(36, "data");
  v.setUint32(40, n * c * 2, true);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      v.setInt16(44 + 2 * (i * c + k), Math.round(Math.max(-1, Math.min(1, channels[k][i])) * 32767), true);
    }
  }
  return out;
}

async function ffmpeg(args: string[]) {
  const out = await new Deno.Command("ffmpeg", { args: ["-y", "-loglevel", "error", ...args], stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`ffmpeg ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

const mp3 = ["-c:a", "libmp3lame", "-b:a", "128k", "-map_metadata", "-1"];
const name = (title: string) => `${dir}Version Artist - ${title}.mp3`;

async function render(stems: Stems, leaveOut: (keyof Stems)[], title: string) {
  const master = await Deno.makeTempFile({ suffix: ".wav" });
  try {
    await Deno.writeFile(master, wav(mixStems(stems, leaveOut), FS));
    await ffmpeg(["-i", master, ...mp3, name(title)]);
  } finally {
    await Deno.remove(master);
  }
}

const stems = pieceStems({ seconds: SECONDS, sampleRate: FS });
await render(stems, [], "Full Mix");
await render(stems, ["lead"], "Instrumental");
await render(stems, ["drums"], "Without Drums");
await render(stems, ["bass"], "Without Bass");
await render(pieceStems({ seconds: SECONDS, sampleRate: FS, take: 1 }), [], "Other Take");
for (const percent of [2, 4, 6]) {
  for (const [sign, title] of [[1, "Sped Up"], [-1, "Slowed"]] as const) {
    const rate = Math.round(FS * (1 + (sign * percent) / 100));
    await ffmpeg([
      "-i",
      name("Full Mix"),
      "-af",
      `asetrate=${rate},aresample=${FS}`,
      ...mp3,
      name(`${title} ${percent}`),
    ]);
  }
}
