/**
 * Counts the MPEG audio layer III frames of a file as its bytes stream by, to get its real length
 * without a second pass and without holding it: a cut-off file gets the length of what it holds,
 * not what its Xing/Info header promises. Frame layout: ISO/IEC 11172-3 and 13818-3; the Xing/Info
 * and VBRI headers are those LAME and Fraunhofer write into the first frame (not audio, not counted).
 *
 * Push chunks in order, then call `finish()`. Bytes are read through a small carry (at most 40 bytes)
 * across chunk edges, so chunks are never copied.
 */
import { type FrameHeader, parseFrameHeader } from "../../audio/mpeg-frames.ts";

type Frame = FrameHeader;

const header = new Uint8Array(4);
/** A layer III frame header at b0..b3, or null: the one header rule of server/audio/mpeg-frames.ts. */
function parseHeader(b0: number, b1: number, b2: number, b3: number): Frame | null {
  header[0] = b0;
  header[1] = b1;
  header[2] = b2;
  header[3] = b3;
  return parseFrameHeader(header, 0);
}

export interface MpegScan {
  /** Audio frames (the Xing/Info/VBRI frame and a cut-off last frame are not counted). */
  frames: number;
  seconds: number;
  /** Bytes of the counted frames. */
  audioBytes: number;
}

type State = "start" | "search" | "frame";

export function createMpegScanner() {
  let state: State = "start";
  /** Absolute offset of the next thing to read (the ID3 header, a frame header, or the search point). */
  let next = 0;
  let total = 0;
  let carry = new Uint8Array(0);
  let carryStart = 0;
  let first = true;
  let frames = 0;
  /** Samples per sample rate: summed as integers, divided once at the end. */
  const samples = new Map<number, number>();
  const addSamples = (f: Frame, sign: 1 | -1) => samples.set(f.sampleRate, (samples.get(f.sampleRate) ?? 0) + sign * f.samples);
  let audioBytes = 0;
  let last: { end: number; frame: Frame } | null = null;

  return {
    push(chunk: Uint8Array) {
      const chunkStart = total;
      total += chunk.byteLength;
      const at = (abs: number) => (abs < chunkStart ? carry[abs - carryStart] : chunk[abs - chunkStart]);
      const hold = (from: number) => {
        // Keeps the undecided bytes from `from` for the next chunk (always a few dozen at most).
        const keep = new Uint8Array(total - from);
        for (let i = 0; i < keep.byteLength; i++) keep[i] = at(from + i);
        carry = keep;
        carryStart = from;
      };

      for (;;) {
        if (state === "start") {
          if (total - next < 10) return hold(next);
          if (at(0) === 0x49 && at(1) === 0x44 && at(2) === 0x33) {
            // ID3v2: 10-byte header, syncsafe size, plus a 10-byte footer when flagged.
            const size = (at(6) << 21) | (at(7) << 14) | (at(8) << 7) | at(9);
            next = 10 + size + (at(5) & 0x10 ? 10 : 0);
          }
          state = "search";
          continue;
        }
        if (next >= total) {
          carry = new Uint8Array(0);
          carryStart = total;
          return;
        }
        // The first frame may hold a Xing/Info (up to byte 40) or VBRI (36..40) tag.
        const need = first ? 40 : 4;
        if (total - next < need) return hold(next);
        const frame = parseHeader(at(next), at(next + 1), at(next + 2), at(next + 3));
        if (!frame || (state === "frame" && last && frame.sampleRate !== last.frame.sampleRate)) {
          // Not a header where one was due: junk or a tag; look for the next header byte by byte.
          state = "search";
          next++;
          continue;
        }
        state = "frame";
        if (first) {
          first = false;
          const tag = (o: number) => String.fromCharCode(at(next + o), at(next + o + 1), at(next + o + 2), at(next + o + 3));
          const info = tag(frame.sideInfoEnd);
          if (info === "Xing" || info === "Info" || tag(36) === "VBRI") {
            next += frame.length;
            continue;
          }
        }
        frames++;
        addSamples(frame, 1);
        audioBytes += frame.length;
        last = { end: next + frame.length, frame };
        next += frame.length;
      }
    },

    finish(): MpegScan {
      // A last frame that runs past the end of the file is not whole audio.
      if (last && last.end > total) {
        frames--;
        addSamples(last.frame, -1);
        audioBytes -= last.frame.length;
      }
      let seconds = 0;
      for (const [rate, n] of samples) seconds += n / rate;
      return { frames, seconds, audioBytes };
    },
  };
}
