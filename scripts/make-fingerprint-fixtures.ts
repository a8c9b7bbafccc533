/**
 * Makes the audio fingerprint's fixtures (issue 25) in test/fixtures/audio/fingerprint/, once; the
 * MP3s are committed and server/audio/fingerprint.test.ts and the processing tests read them:
 *
 *   npx -y deno@2 run -A scripts/make-fingerprint-fixtures.ts
 *
 * Needs `lame` (3.100) and `ffmpeg` (Debian). The source is 12 s of G minor at 172 BPM over the
 * two-step groove (server/testing/chords.ts), 44.1 kHz stereo, written as a 16-bit WAV master. Then:
 *
 * - `Print Artist - Original.mp3`: the master at 320 kbps CBR (`lame -b 320`);
 * - `… - Copy 128.mp3`: the master at 128 kbps CBR (`lame -b 128`);
 * - `… - Copy V0.mp3`: the master at VBR V0 (`lame -V 0`);
 * - `… - Copy 48k.mp3`: the 320 kbps MP3 decoded, resampled to 48 kHz and encoded again
 *   (`ffmpeg -ar 48000 -c:a libmp3lame -b:a 192k`);
 * - `… - Copy Quieter.mp3`: the 320 kbps MP3 1 dB quieter (`-af volume=-1dB`, 192 kbps);
 * - `… - Copy Late.mp3`: the 320 kbps MP3 with 2 s of silence in front (`-af adelay=2000:all=1`, 192 kbps);
 * - `Someone Else - Renamed.mp3`: the 320 kbps MP3's frames as they are under another name and other
 *   tags (`ffmpeg -c copy -metadata …`): other bytes, the same audio;
 * - `Print Artist - Other Groove.mp3`: another groove at the same tempo and key: G minor at 172 BPM,
 *   the half-time drums (kick on 1, snare on 3) and another loop of chords (i – iv – v – VI), 320 kbps.
 */
import { chordTrack } from "../server/testing/chords.ts";
import { ffmpeg, lame, withMaster } from "./fixture-encode.ts";

const SECONDS = 12;
const FS = 44100;
const dir = new URL("../test/fixtures/audio/fingerprint/", import.meta.url).pathname;

const common = { tonic: 7, mode: "minor" as const, seconds: SECONDS, sampleRate: FS, channels: 2 as const, bpm: 172 };
const otherGroove = chordTrack({
  ...common,
  drums: true,
  drumPattern: "dubstep",
  progression: [[0, "min"], [5, "min"], [7, "min"], [8, "maj"]],
  seed: 9,
});
const original = `${dir}Print Artist - Original.mp3`;
await withMaster(chordTrack({ ...common, drums: true, seed: 5 }), FS, async (master) => {
  await lame(["-b", "320", master, original]);
  await lame(["-b", "128", master, `${dir}Print Artist - Copy 128.mp3`]);
  await lame(["-V", "0", master, `${dir}Print Artist - Copy V0.mp3`]);
});
const ff = (args: string[], file: string) =>
  ffmpeg(["-i", original, ...args, "-c:a", "libmp3lame", "-b:a", "192k", `${dir}${file}`]);
await ff(["-ar", "48000"], "Print Artist - Copy 48k.mp3");
await ff(["-af", "volume=-1dB"], "Print Artist - Copy Quieter.mp3");
await ff(["-af", "adelay=2000:all=1"], "Print Artist - Copy Late.mp3");
await ffmpeg([
  "-i",
  original,
  "-c",
  "copy",
  "-metadata",
  "artist=Someone Else",
  "-metadata",
  "title=Renamed",
  `${dir}Someone Else - Renamed.mp3`,
]);
await withMaster(otherGroove, FS, (other) => lame(["-b", "320", other, `${dir}Print Artist - Other Groove.mp3`]));
