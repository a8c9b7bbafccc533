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
import { ffmpeg, withMaster } from "./fixture-encode.ts";

const SECONDS = 12;
const FS = 44100;
const dir = new URL("../test/fixtures/audio/versions/", import.meta.url).pathname;

const mp3 = ["-c:a", "libmp3lame", "-b:a", "128k", "-map_metadata", "-1"];
const name = (title: string) => `${dir}Version Artist - ${title}.mp3`;

const render = (stems: Stems, leaveOut: (keyof Stems)[], title: string) =>
  withMaster(mixStems(stems, leaveOut), FS, (master) => ffmpeg(["-i", master, ...mp3, name(title)]));

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
