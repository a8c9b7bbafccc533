/**
 * Generated hostile "MP3" files for the tests and `deno task bench hostile` (issue 20), built on the
 * fly so that no large file is committed: an ID3v2 tag bomb of millions of tiny TXXX frames, and
 * hours of MPEG-2.5 8 kbps frames (silent: every frame's side information is zero, which mpg123
 * decodes as silence). Each comes as chunks, so a 50 MB file is never held whole.
 */

const syncsafe = (n: number) => [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];

/** An ID3v2 header (v2.3 unless given) declaring a body of `bodyBytes`. */
export function id3Header(bodyBytes: number, major = 3, flags = 0): Uint8Array {
  return new Uint8Array([0x49, 0x44, 0x33, major, 0, flags, ...syncsafe(bodyBytes)]);
}

/** One ID3v2.3/2.4 frame: `id`, its body, no flags. */
export function id3Frame(id: string, body: Uint8Array, major = 3): Uint8Array {
  const out = new Uint8Array(10 + body.length);
  out.set(new TextEncoder().encode(id));
  if (major === 4) out.set(syncsafe(body.length), 4);
  else new DataView(out.buffer).setUint32(4, body.length);
  out.set(body, 10);
  return out;
}

/** A text frame body in UTF-8 (encoding byte 3). */
export function utf8Text(text: string): Uint8Array {
  const t = new TextEncoder().encode(text);
  const out = new Uint8Array(1 + t.length);
  out[0] = 3;
  out.set(t, 1);
  return out;
}

/** A whole ID3v2 tag of the given frames. */
export function id3Tag(frames: Uint8Array[], major = 3): Uint8Array {
  const size = frames.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(10 + size);
  out.set(id3Header(size, major));
  let at = 10;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** MPEG-2.5 layer III, 8 kbps, 8 kHz, mono, no CRC: 72 bytes, 576 samples (72 ms) a frame. */
const MPEG25_HEADER = [0xff, 0xe3, 0x18, 0xc0];
export const MPEG25_FRAME_BYTES = 72;
export const MPEG25_FRAME_SECONDS = 576 / 8000;

/** One silent MPEG-2.5 8 kbps frame. */
function mpeg25Frame(): Uint8Array {
  const f = new Uint8Array(MPEG25_FRAME_BYTES);
  f.set(MPEG25_HEADER);
  return f;
}

/** The first frame as a Xing tag declaring `frames` audio frames. */
function mpeg25XingFrame(frames: number): Uint8Array {
  const f = mpeg25Frame();
  // Side information of a mono MPEG-2/2.5 frame is 9 bytes: the tag follows at 4 + 9.
  f.set(new TextEncoder().encode("Xing"), 13);
  new DataView(f.buffer).setUint32(17, 1); // flags: frame count present
  new DataView(f.buffer).setUint32(21, frames);
  return f;
}

export interface Mpeg25Options {
  /** Length of the audio. */
  seconds: number;
  /** Put a Xing frame first that declares this length (a lie when it differs from `seconds`). */
  declaredSeconds?: number;
  /** Bytes before the frames (an ID3 tag). */
  head?: Uint8Array;
}

/** Hours of MPEG-2.5 8 kbps audio (the 51 MB file is 14.3 hours), as chunks of ~64 KiB. */
export function mpeg25File(opts: Mpeg25Options): { size: number; chunks: () => AsyncGenerator<Uint8Array> } {
  const frames = Math.round(opts.seconds / MPEG25_FRAME_SECONDS);
  const xing = opts.declaredSeconds === undefined
    ? null
    : mpeg25XingFrame(Math.round(opts.declaredSeconds / MPEG25_FRAME_SECONDS));
  const head = opts.head ?? new Uint8Array(0);
  const perChunk = 910; // 65,520 bytes
  const block = new Uint8Array(perChunk * MPEG25_FRAME_BYTES);
  for (let i = 0; i < perChunk; i++) block.set(MPEG25_HEADER, i * MPEG25_FRAME_BYTES);
  return {
    size: head.length + (xing ? xing.length : 0) + frames * MPEG25_FRAME_BYTES,
    chunks: async function* () {
      if (head.length) yield head;
      if (xing) yield xing;
      for (let left = frames; left > 0; left -= perChunk) {
        yield block.subarray(0, Math.min(left, perChunk) * MPEG25_FRAME_BYTES);
      }
    },
  };
}

export interface TagBombOptions {
  /** TXXX frames in the tag (the file: 3.4 million, 47 MB). */
  frames: number;
  /** Audio after the tag, so that the file is otherwise a fine MP3. */
  audio: Uint8Array;
}

/**
 * An ID3v2.3 tag of `frames` tiny TXXX frames (14 bytes each: no description, a one-byte value),
 * then `audio`, as chunks of ~64 KiB.
 */
export function tagBomb(opts: TagBombOptions): { size: number; chunks: () => AsyncGenerator<Uint8Array> } {
  const frame = id3Frame("TXXX", new Uint8Array([0, 0, 0x78]));
  const body = opts.frames * frame.length;
  const perChunk = 4681; // 65,534 bytes
  const block = new Uint8Array(perChunk * frame.length);
  for (let i = 0; i < perChunk; i++) block.set(frame, i * frame.length);
  return {
    size: 10 + body + opts.audio.length,
    chunks: async function* () {
      yield id3Header(body);
      for (let left = opts.frames; left > 0; left -= perChunk) {
        yield block.subarray(0, Math.min(left, perChunk) * frame.length);
      }
      yield opts.audio;
    },
  };
}

/** All of a generated file's chunks joined (for small ones). */
export async function bytesOf(file: { size: number; chunks: () => AsyncGenerator<Uint8Array> }): Promise<Uint8Array> {
  const out = new Uint8Array(file.size);
  let at = 0;
  for await (const c of file.chunks()) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Free-format headers (bitrate index 0) every 4 bytes, each of another kind than the 1,151 before it
 * (version, CRC bit, sample rate, channel mode, copyright, original and emphasis bits cycle), so no
 * header of the same kind follows within the longest frame: without a budget, each would scan about
 * 3.4 KB for its frame length (docs/decisions/0218). As chunks of 64 KiB.
 */
export function freeFormatBomb(bytes: number): { size: number; chunks: () => AsyncGenerator<Uint8Array> } {
  const kinds: number[][] = [];
  for (const b1 of [0xfb, 0xfa, 0xf3, 0xf2, 0xe3, 0xe2]) {
    for (const rate of [0, 1, 2]) {
      for (let b3 = 0; b3 < 256; b3++) if ((b3 & 0x30) === 0) kinds.push([0xff, b1, rate << 2, b3]);
    }
  }
  const block = new Uint8Array(64 * 1024);
  return {
    size: bytes,
    chunks: async function* () {
      let k = 0;
      for (let left = bytes; left > 0; left -= block.length) {
        for (let at = 0; at < block.length; at += 4, k = (k + 1) % kinds.length) block.set(kinds[k], at);
        yield block.subarray(0, Math.min(left, block.length));
      }
    },
  };
}
