/**
 * Checks of a staff card's clip against its track (issue 27), shared by the clip's unit test and the
 * cards' test: its length as ffprobe reads it, and which of the track's frames it starts with.
 * Test tooling only; needs `ffmpeg`/`ffprobe` on the PATH.
 */
import { parseFrameHeader } from "../audio/mpeg-frames.ts";

/** Seconds of one MPEG-1 layer III frame at 44.1 kHz. */
export const FRAME_S = 1152 / 44100;

/** What ffprobe reads of an MP3: its length and its title and artist tags. */
export async function probeMp3(bytes: Uint8Array): Promise<{ duration: number; tags: Record<string, string> }> {
  const path = await Deno.makeTempFile({ suffix: ".mp3" });
  try {
    await Deno.writeFile(path, bytes);
    const out = await new Deno.Command("ffprobe", {
      args: ["-v", "error", "-show_entries", "format=duration:format_tags=title,artist", "-of", "json", path],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) throw new Error(`ffprobe: ${new TextDecoder().decode(out.stderr)}`);
    const json = JSON.parse(new TextDecoder().decode(out.stdout));
    return { duration: Number(json.format.duration), tags: json.format.tags ?? {} };
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

/**
 * A rising two-tone sweep of `seconds` at 320 kbps CBR, 44.1 kHz stereo, made with ffmpeg's LAME: no
 * two stretches of it are alike, so a clip's first frame is found at one place of it only.
 */
export async function sweepMp3(seconds = 45): Promise<Uint8Array> {
  const path = await Deno.makeTempFile({ suffix: ".mp3" });
  try {
    const out = await new Deno.Command("ffmpeg", {
      args: [
        ...["-v", "error", "-f", "lavfi", "-i"],
        `aevalsrc=0.5*sin(2*PI*(200+40*t)*t)|0.5*sin(2*PI*(300+30*t)*t):s=44100:d=${seconds}`,
        ...["-c:a", "libmp3lame", "-b:a", "320k", "-y", path],
      ],
      stderr: "piped",
    }).output();
    if (out.code !== 0) throw new Error(`ffmpeg: ${new TextDecoder().decode(out.stderr)}`);
    return await Deno.readFile(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

const id3Size = (b: Uint8Array) =>
  b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33 ? 10 + ((b[6] << 21) | (b[7] << 14) | (b[8] << 7) | b[9]) : 0;

/** Start offsets of the audio frames of a CBR file (its ID3 tag and Info/Xing frame left out). */
export function frameOffsets(file: Uint8Array): number[] {
  const offsets: number[] = [];
  let pos = id3Size(file);
  while (pos < file.length && file[pos] !== 0xff) pos++;
  while (pos + 4 <= file.length) {
    const h = parseFrameHeader(file, pos);
    if (!h) break;
    const word = new TextDecoder().decode(file.subarray(pos + h.sideInfoEnd, pos + h.sideInfoEnd + 4));
    if (offsets.length > 0 || (word !== "Info" && word !== "Xing")) offsets.push(pos);
    pos += h.length;
  }
  return offsets;
}

/**
 * The index among `file`'s audio frames of the clip's first audio frame (after its tag and Info
 * frame), found by its bytes and the next few frames' (8 KB); null when found nowhere or twice.
 */
export function clipFirstFrameIndex(file: Uint8Array, clip: Uint8Array): number | null {
  const tagSize = id3Size(clip);
  const info = parseFrameHeader(clip, tagSize);
  if (!info) return null;
  const bytes = clip.subarray(tagSize + info.length, tagSize + info.length + 8192);
  const offsets = frameOffsets(file);
  const matches = offsets.filter((o) => file.subarray(o, o + bytes.length).every((b, i) => b === bytes[i]));
  return matches.length === 1 ? offsets.indexOf(matches[0]) : null;
}
