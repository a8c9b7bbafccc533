import type { FileStorage } from "../storage/file-storage.ts";
import { createFrameSplitter, type FrameHeader, parseFrameHeader } from "./mpeg-frames.ts";

/**
 * A short clip of a stored MP3 for the staff cards in Telegram (issue 27; docs/decisions/0258): the
 * frames from the drop (or from 30 % of the track when it has none) for CLIP_SECONDS, cut at frame
 * boundaries without decoding or encoding anything, behind a new ID3v2.4 tag (TIT2 title, TPE1
 * artist) and an Info/Xing frame that states the clip's own frame count (players and ffprobe read
 * its length from it; the original's tag would name the whole track's).
 *
 * The bit reservoir: a layer III frame may begin its audio data in the frames before it
 * (`main_data_begin` bytes back). The clip therefore starts with as many of the frames before the
 * drop's frame as that frame's reservoir reaches into (none when its `main_data_begin` is 0, most
 * often one), so the drop's frame decodes whole; those frames count towards the clip's length, so
 * the clip is CLIP_SECONDS within one frame and its audio is exact from the drop's frame on.
 *
 * The track is streamed from storage (disk or bucket) and read only up to the clip's end; only the
 * clip's frames are kept (at 320 kbps, 30 s is 1.2 MB; at most MAX_CLIP_BYTES).
 */

export const CLIP_SECONDS = 30;
/** Where the clip starts in a track without a drop: this share of its length. */
export const CLIP_START_SHARE = 0.3;
/** A clip larger than this is refused (free-format files can be denser than 320 kbps). */
export const MAX_CLIP_BYTES = 4 * 1024 * 1024;
/** Frames before the start kept in case the start's reservoir reaches into them (511 bytes at most). */
const RESERVOIR_FRAMES = 8;

export class ClipError extends Error {}

export interface ClipRequest {
  /** `drop_s` of the track's report; null or undefined: none found. */
  dropS?: number | null;
  /** The track's length in seconds (for 30 % and for a drop near the end). */
  durationS: number | null;
  artist: string;
  title: string;
  lengthS?: number;
}

export interface Clip {
  bytes: Uint8Array;
  /** Where the first audio frame of the clip starts in the track, seconds. */
  startS: number;
  /** Where the drop's (or the start's) frame starts: the clip's audio is whole from here on. */
  cleanStartS: number;
  /** The clip's length from its frames, seconds. */
  durationS: number;
  frames: number;
}

/** The second the clip should start at: the drop, else 30 %; never so late that the clip runs short. */
export function clipStart(req: Pick<ClipRequest, "dropS" | "durationS" | "lengthS">): number {
  const length = req.lengthS ?? CLIP_SECONDS;
  const duration = req.durationS && req.durationS > 0 ? req.durationS : null;
  let start = req.dropS !== null && req.dropS !== undefined && Number.isFinite(req.dropS) && req.dropS >= 0
    ? req.dropS
    : duration !== null
    ? duration * CLIP_START_SHARE
    : 0;
  if (duration !== null) start = Math.min(start, Math.max(0, duration - length));
  return Math.max(0, start);
}

/** `main_data_begin` of the frame at `at`: how many bytes of the frames before it its audio data starts. */
export function mainDataBegin(b: Uint8Array, at: number, h: FrameHeader): number {
  const side = at + 4 + ((b[at + 1] & 1) === 0 ? 2 : 0);
  return h.version === 3 ? (b[side] << 1) | (b[side + 1] >> 7) : b[side];
}

/** Bytes of a frame that hold audio data (what a later frame's reservoir may use). */
function mainDataBytes(b: Uint8Array, h: FrameHeader): number {
  const crc = (b[1] & 1) === 0 ? 2 : 0;
  return Math.max(0, h.length - h.sideInfoEnd - crc);
}

function isTagFrame(b: Uint8Array, at: number, h: FrameHeader): boolean {
  const word = (o: number) =>
    at + o + 4 <= b.length ? String.fromCharCode(b[at + o], b[at + o + 1], b[at + o + 2], b[at + o + 3]) : "";
  const name = word(h.sideInfoEnd + ((b[at + 1] & 1) === 0 ? 2 : 0));
  return name === "Xing" || name === "Info" || word(36) === "VBRI";
}

const syncsafe = (n: number) => [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];

/** An ID3v2.4 tag with UTF-8 text frames TIT2 and TPE1 (empty values are left out). */
export function id3Tag(title: string, artist: string): Uint8Array {
  const enc = new TextEncoder();
  const frames: number[] = [];
  for (const [id, value] of [["TIT2", title], ["TPE1", artist]] as const) {
    if (!value) continue;
    const text = enc.encode(value);
    frames.push(...enc.encode(id), ...syncsafe(text.length + 1), 0, 0, 3, ...text);
  }
  return new Uint8Array([...enc.encode("ID3"), 4, 0, 0, ...syncsafe(frames.length), ...frames]);
}

/**
 * An Info (constant bitrate) or Xing (variable) frame for `frames` frames of `bytes` bytes, made
 * from the first frame's header (no CRC, no padding); null when such a frame is too short for it.
 */
function infoFrame(first: Uint8Array, frames: number, bytes: number, vbr: boolean): Uint8Array | null {
  const head = first.slice(0, 4);
  head[1] |= 1; // no CRC
  head[2] &= ~0x02; // no padding
  const h = parseFrameHeader(head, 0);
  if (!h || h.length < h.sideInfoEnd + 16) return null;
  const out = new Uint8Array(h.length);
  out.set(head);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(vbr ? "Xing" : "Info"), h.sideInfoEnd);
  view.setUint32(h.sideInfoEnd + 4, 0x3); // frames and bytes present
  view.setUint32(h.sideInfoEnd + 8, frames);
  view.setUint32(h.sideInfoEnd + 12, bytes + h.length);
  return out;
}

/**
 * Cuts the clip from the stored track `key`. Throws ClipError when the file holds no usable frames
 * (or nothing from the start on), or a storage error as it comes.
 */
export async function cutClip(storage: FileStorage, key: string, req: ClipRequest): Promise<Clip> {
  const lengthS = req.lengthS ?? CLIP_SECONDS;
  const startS = clipStart(req);
  const splitter = createFrameSplitter();
  /** The last frames before the start (copies), for the reservoir. */
  const before: Uint8Array[] = [];
  const taken: Uint8Array[] = [];
  let takenBytes = 0;
  let index = 0; // audio frames seen
  let startFrame = -1;
  let wanted = 0;
  let sampleRate = 0;
  let samples = 0;
  let first = true;
  let firstTaken = -1; // the index of the clip's first frame
  let vbr = false;
  let bitrate = 0;

  /** Takes the frames of one piece of the splitter's output; true once the clip is complete. */
  const take = (out: Uint8Array): boolean => {
    let pos = 0;
    while (pos + 4 <= out.length) {
      const h = parseFrameHeader(out, pos);
      if (!h || pos + h.length > out.length) throw new ClipError("the frames could not be walked");
      const at = pos;
      pos += h.length;
      if (first) {
        first = false;
        if (isTagFrame(out, at, h)) continue;
      }
      if (startFrame < 0) {
        sampleRate = h.sampleRate;
        samples = h.samples;
        // The first frame starting at or after the second asked (its reservoir frames come before it).
        startFrame = Math.ceil((startS * sampleRate) / samples - 1e-9);
        wanted = Math.max(1, Math.round((lengthS * sampleRate) / samples));
      }
      const frame = out.subarray(at, pos);
      if (index < startFrame) {
        before.push(frame.slice());
        if (before.length > RESERVOIR_FRAMES) before.shift();
      } else {
        if (taken.length === 0) {
          // The frames the start's reservoir reaches into come first (docs/decisions/0258).
          let need = mainDataBegin(out, at, h);
          const lead: Uint8Array[] = [];
          for (let i = before.length - 1; i >= 0 && need > 0; i--) {
            const f = before[i];
            lead.unshift(f);
            need -= mainDataBytes(f, parseFrameHeader(f, 0)!);
          }
          for (const f of lead.slice(-Math.max(0, wanted - 1))) taken.push(f);
          firstTaken = index - taken.length;
          before.length = 0;
        }
        if (bitrate === 0) bitrate = h.bitrateKbps;
        else if (h.bitrateKbps !== bitrate) vbr = true;
        taken.push(frame.slice());
        takenBytes += frame.length;
        if (takenBytes > MAX_CLIP_BYTES) throw new ClipError("the clip would be too large");
        if (taken.length >= wanted) return true;
      }
      index++;
    }
    return false;
  };

  const { body } = await storage.read(key);
  let done = false;
  // Leaving the loop early cancels the stream: the rest of the track is never read.
  for await (const chunk of body) {
    if (take(splitter.push(chunk))) {
      done = true;
      break;
    }
  }
  if (!done) take(splitter.finish());
  if (taken.length === 0) throw new ClipError("no audio frames from the clip's start on");

  const frameS = samples / sampleRate;
  const bytes = taken.reduce((n, f) => n + f.length, 0);
  const tag = id3Tag(req.title, req.artist);
  const info = infoFrame(taken[taken.length - 1], taken.length, bytes, vbr);
  const out = new Uint8Array(tag.length + (info?.length ?? 0) + bytes);
  out.set(tag);
  let o = tag.length;
  if (info) {
    out.set(info, o);
    o += info.length;
  }
  for (const f of taken) {
    out.set(f, o);
    o += f.length;
  }
  return {
    bytes: out,
    startS: firstTaken * frameS,
    cleanStartS: startFrame * frameS,
    durationS: taken.length * frameS,
    frames: taken.length,
  };
}
