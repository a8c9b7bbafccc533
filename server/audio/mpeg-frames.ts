/**
 * Splits a stream of MP3 bytes into whole MPEG audio layer III frames, so that only real frames reach
 * the decoder (an ID3 tag, a RIFF header or text never does) and the frame headers give the bitrate
 * facts. Frame layout: ISO/IEC 11172-3 and 13818-3 (MPEG-2.5 is the usual Fraunhofer extension); the
 * Xing/Info and VBRI tags are those LAME and Fraunhofer write into the first frame.
 *
 * Sync rule: outside a run of frames, a header counts only when the two headers its length points to
 * follow it and agree with it (same version, sample rate and mono/stereo); inside a run, each header
 * must be where the previous frame ends and agree with the run. A broken header drops back to the
 * search. A cut-off last frame is never passed on.
 *
 * Free format (bitrate index 0, which mpg123 decodes): the frame length is the distance to the next
 * header of the same kind (`freeFormatLength`), then held to the same rule: two more headers where
 * that length points. The length found is kept for the rest of the stream, and the searches before
 * one is found share one budget of bytes (FREE_FORMAT_SEARCH_BUDGET; docs/decisions/0218).
 *
 * `push` returns the bytes of the frames it could complete (a view into the chunk when they are
 * contiguous, which is the usual case): hand them to the decoder before the next `push`, since a
 * caller may reuse its chunk buffer. At most three frames (under 5 KB) are held between chunks.
 */

// Layer III bitrates in kbps by [MPEG-1 | MPEG-2/2.5][index].
const BITRATES = [
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

export interface FrameHeader {
  /** The 2-bit version field: 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5. */
  version: number;
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  /** Samples per channel in the frame. */
  samples: number;
  /** Bytes, header included. */
  length: number;
  /** Offset of a Xing/Info tag from the frame start (just after the side information). */
  sideInfoEnd: number;
  /** Bitrate index 0: the length came from the distance to the next header. */
  freeFormat: boolean;
}

/**
 * The layer III frame header at `b[at..at+3]`, or null when those bytes are not one.
 *
 * A free-format header (bitrate index 0) names no bitrate: its frame length is the distance to the
 * next header (`freeFormatLength`). Given that unpadded length as `freeLength`, such a header is read
 * with it (the bitrate it implies, rounded to whole kbps); without it, it is null like any non-header.
 */
export function parseFrameHeader(b: Uint8Array, at: number, freeLength = 0): FrameHeader | null {
  if (b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1] >> 3) & 3;
  const layer = (b[at + 1] >> 1) & 3;
  const bitrateIndex = b[at + 2] >> 4;
  const rateIndex = (b[at + 2] >> 2) & 3;
  // Version 1 is reserved; layer 1 (the bits 01) is layer III; index 0 is "free format", 15 is invalid.
  if (version === 1 || layer !== 1 || bitrateIndex === 15 || rateIndex === 3) return null;
  if (bitrateIndex === 0 && freeLength === 0) return null;
  const mpeg1 = version === 3;
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const coefficient = mpeg1 ? 144 : 72;
  const bitrateKbps = bitrateIndex === 0
    ? Math.round((freeLength * sampleRate) / coefficient / 1000)
    : BITRATES[mpeg1 ? 0 : 1][bitrateIndex];
  const padding = (b[at + 2] >> 1) & 1;
  const mono = b[at + 3] >> 6 === 3;
  return {
    version,
    bitrateKbps,
    sampleRate,
    channels: mono ? 1 : 2,
    samples: mpeg1 ? 1152 : 576,
    length: (bitrateIndex === 0 ? freeLength : Math.floor((coefficient * bitrateKbps * 1000) / sampleRate)) + padding,
    sideInfoEnd: 4 + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)),
    freeFormat: bitrateIndex === 0,
  };
}

/** A header with bitrate index 0 (free format), otherwise a valid layer III header. */
function isFreeFormat(b: Uint8Array, at: number): boolean {
  return b[at] === 0xff && (b[at + 1] & 0xe0) === 0xe0 && b[at + 2] >> 4 === 0 && parseFrameHeader(b, at, 1) !== null;
}

/**
 * mpg123's largest frame (MAXFRAMESIZE): a free-format frame cannot be longer, whatever the rate.
 * It also bounds the search for the next header.
 */
export const FREE_FORMAT_MAX_LENGTH = 3456;
/**
 * Bytes the search for free-format frame lengths may look at in one stream before a length is known
 * (docs/decisions/0218): a file crafted with free-format headers and nothing that confirms them costs
 * at most this much scanning, never a search per byte across the whole file.
 */
export const FREE_FORMAT_SEARCH_BUDGET = 256 * 1024;

export type FreeFormatSearch =
  /** The unpadded frame length: the next header of the same kind is that far on. */
  | { length: number }
  /** Too few bytes after `at` to tell (wait for more, unless the stream has ended). */
  | { short: true }
  /** No header of the same kind within reach. */
  | null;

/**
 * The unpadded frame length of the free-format header at `at`, from the distance to the next header
 * that agrees with it in every field but padding, private bit and mode extension. The shortest length
 * looked at is the standard's shortest frame at that rate (index 1: 32 kbps for MPEG-1, 8 for 2/2.5),
 * so a free-format stream has no more frames per byte than a standard one; the longest is mpg123's.
 * `scanned(n)` is told the bytes looked at (the caller's budget).
 */
export function freeFormatLength(b: Uint8Array, at: number, scanned: (n: number) => void): FreeFormatSearch {
  const h = parseFrameHeader(b, at, 1)!;
  const padding = (b[at + 2] >> 1) & 1;
  const shortest = Math.floor(((h.version === 3 ? 144 : 72) * (h.version === 3 ? 32 : 8) * 1000) / h.sampleRate);
  const from = at + shortest + padding;
  const to = at + FREE_FORMAT_MAX_LENGTH + padding; // the next header starts at most here
  const b1 = b[at + 1], b2 = b[at + 2] & 0xfc, b3 = b[at + 3] & 0xcf;
  const end = Math.min(to, b.length - 4);
  for (let p = from; p <= end; p++) {
    if (b[p] === 0xff && b[p + 1] === b1 && (b[p + 2] & 0xfc) === b2 && (b[p + 3] & 0xcf) === b3) {
      scanned(p - from + 1);
      return { length: p - at - padding };
    }
  }
  scanned(Math.max(0, end - from + 1));
  return end < to ? { short: true } : null;
}

/** The standard bitrate index whose frames at `h`'s rate are `length` bytes unpadded, or 0. */
function standardIndex(h: FrameHeader, length: number): number {
  const mpeg1 = h.version === 3;
  const table = BITRATES[mpeg1 ? 0 : 1];
  for (let i = 1; i < table.length; i++) {
    if (Math.floor(((mpeg1 ? 144 : 72) * table[i] * 1000) / h.sampleRate) === length) return i;
  }
  return 0;
}

const agrees = (a: FrameHeader, b: FrameHeader) =>
  a.version === b.version && a.sampleRate === b.sampleRate && a.channels === b.channels &&
  a.freeFormat === b.freeFormat;

/** Headers that must follow a candidate (and agree with it) before a run of frames starts. */
const CONFIRMING_HEADERS = 2;

export interface FrameStats {
  /** Audio frames passed on (a Xing/Info/VBRI tag frame is passed on but not counted). */
  frames: number;
  /** Bytes of the counted frames. */
  bytes: number;
  /** Samples per channel of the counted frames. */
  samples: number;
  sampleRate: number;
  channels: 1 | 2;
  /** Every counted frame had the same bitrate. */
  constantBitrate: boolean;
  /** The bitrate of the first counted frame. */
  firstBitrateKbps: number;
  /** The first frame was a Xing/Info/VBRI tag. */
  tagFrame: boolean;
  /** Size of the leading ID3v2 tag (0 without one). */
  id3Bytes: number;
  /** Audio frames the Xing/Info/VBRI tag says the file holds (null without a tag or the figure). */
  declaredFrames: number | null;
  /**
   * A run of free-format frames was found whose length no standard bitrate has at its rate (the
   * bitrate it implies, kbps); such frames are not passed on (docs/decisions/0218). 0 otherwise.
   */
  unsupportedFreeFormatKbps: number;
  /** Bytes looked at in searches for a free-format frame length (at most the budget and one frame). */
  freeFormatSearchedBytes: number;
  /** The counted frames are free format (bitrate index 0; docs/decisions/0218). */
  freeFormat: boolean;
}

export interface FrameSplitter {
  push(chunk: Uint8Array): Uint8Array;
  /** End of stream: the frames still held that the end confirms. */
  finish(): Uint8Array;
  readonly stats: FrameStats;
}

const EMPTY = new Uint8Array(0);

/** The figures of a stream before its first frame. */
export function emptyStats(): FrameStats {
  return {
    frames: 0,
    bytes: 0,
    samples: 0,
    sampleRate: 0,
    channels: 2,
    constantBitrate: true,
    firstBitrateKbps: 0,
    tagFrame: false,
    id3Bytes: 0,
    declaredFrames: null,
    unsupportedFreeFormatKbps: 0,
    freeFormatSearchedBytes: 0,
    freeFormat: false,
  };
}

/**
 * Adds an accepted frame to `stats`; the stream's `first` frame may be a Xing/Info/VBRI tag, passed
 * on but not counted.
 */
export function countFrame(stats: FrameStats, h: FrameHeader, buf: Uint8Array, at: number, first: boolean) {
  if (first) {
    stats.sampleRate = h.sampleRate;
    stats.channels = h.channels;
    const tag = (o: number) =>
      at + o + 4 <= buf.length
        ? String.fromCharCode(buf[at + o], buf[at + o + 1], buf[at + o + 2], buf[at + o + 3])
        : "";
    const name = tag(h.sideInfoEnd);
    const vbri = tag(36) === "VBRI";
    if (name === "Xing" || name === "Info" || vbri) {
      // Not audio, but passed on: the decoder takes the encoder delay and padding from it (gapless).
      stats.tagFrame = true;
      const u32 = (o: number) =>
        at + o + 4 <= buf.length
          ? ((buf[at + o] << 24) >>> 0) + (buf[at + o + 1] << 16) + (buf[at + o + 2] << 8) + buf[at + o + 3]
          : null;
      if (vbri) stats.declaredFrames = u32(36 + 14);
      else if (((u32(h.sideInfoEnd + 4) ?? 0) & 1) !== 0) stats.declaredFrames = u32(h.sideInfoEnd + 8);
      return;
    }
  }
  if (stats.frames === 0) {
    stats.firstBitrateKbps = h.bitrateKbps;
    stats.freeFormat = h.freeFormat;
  } else if (h.bitrateKbps !== stats.firstBitrateKbps) stats.constantBitrate = false;
  stats.frames++;
  stats.bytes += h.length;
  stats.samples += h.samples;
}

/**
 * How many of the CONFIRMING_HEADERS headers that must follow the candidate `h` at `pos` are where
 * its length says and agree with it; `short` when the bytes end before that is known.
 */
export function confirmHeaders(buf: Uint8Array, pos: number, h: FrameHeader, freeLength: number) {
  let at = pos + h.length;
  let confirmed = 0;
  let short = false;
  while (confirmed < CONFIRMING_HEADERS) {
    if (at + 4 > buf.length) {
      short = true;
      break;
    }
    const next = parseFrameHeader(buf, at, freeLength);
    if (!next || !agrees(next, h)) break;
    confirmed++;
    at += next.length;
  }
  return { confirmed, short };
}

/**
 * The accepted frames of `buf` (the [start, end) `ranges`) in one buffer, each free-format header at
 * `freeHeads` rewritten with the standard `freeIndex`; that copy goes to `scratch.rewritten`, reused.
 */
export function gatherFrames(
  buf: Uint8Array,
  ranges: number[],
  freeHeads: number[],
  freeIndex: number,
  scratch: { rewritten: Uint8Array },
): Uint8Array {
  let size = 0;
  for (let i = 0; i < ranges.length; i += 2) size += ranges[i + 1] - ranges[i];
  let out: Uint8Array;
  if (freeHeads.length === 0) out = new Uint8Array(size);
  else {
    // Never written into the caller's chunk (its bytes are hashed and stored as they came).
    if (scratch.rewritten.length < size) scratch.rewritten = new Uint8Array(size + 16 * 1024);
    out = scratch.rewritten.subarray(0, size);
  }
  let next = 0; // the next free-format header to rewrite
  for (let i = 0, o = 0; i < ranges.length; i += 2) {
    out.set(buf.subarray(ranges[i], ranges[i + 1]), o);
    for (; next < freeHeads.length && freeHeads[next] < ranges[i + 1]; next++) {
      const at = o + freeHeads[next] - ranges[i] + 2;
      out[at] = (freeIndex << 4) | (out[at] & 0x0f);
    }
    o += ranges[i + 1] - ranges[i];
  }
  return out;
}

/** `carry` and `chunk` as one view, in `joined.buffer` (grown when needed); `chunk` itself when nothing is carried. */
export function joinChunk(carry: Uint8Array, chunk: Uint8Array, joined: { buffer: Uint8Array }): Uint8Array {
  if (carry.length === 0) return chunk;
  const size = carry.length + chunk.length;
  if (joined.buffer.length < size) joined.buffer = new Uint8Array(size + 16 * 1024);
  const buf = joined.buffer.subarray(0, size);
  buf.set(carry);
  buf.set(chunk, carry.length);
  return buf;
}

export function createFrameSplitter(): FrameSplitter {
  const stats = emptyStats();
  let started = false; // the leading ID3v2 check is done
  let skip = 0; // bytes of an ID3v2 tag still to pass over
  let carry = EMPTY;
  /** Holds `carry` between chunks, reused like `joined` below (a few KB). */
  let kept = EMPTY;
  const keep = (tail: Uint8Array) => {
    if (kept.length < tail.length) kept = new Uint8Array(tail.length + 8 * 1024);
    kept.set(tail);
    return kept.subarray(0, tail.length);
  };
  /** The header every frame of the current run agrees with; null while searching. */
  let run: FrameHeader | null = null;
  /**
   * The unpadded frame length of free-format frames once a run of them was confirmed (0 before): the
   * stream's one free-format length (an encoder keeps it), used again after a lost sync.
   */
  let freeLength = 0;
  const addSearched = (n: number) => (stats.freeFormatSearchedBytes += n);
  /**
   * The standard bitrate index whose frames are as long as the stream's free-format frames: written
   * into the headers handed to the decoder (mpg123's WebAssembly build decodes no free format), which
   * then sees the very same bytes as standard frames. 0 when there is none: nothing more is searched.
   */
  let freeIndex = 0;
  let freeRefused = false;
  /** Where free-format frames are handed over with their index rewritten (reused, like `joined`). */
  const scratch = { rewritten: EMPTY };
  /** The first frame of the stream (which may be a tag) is still to come. */
  let first = true;

  function count(h: FrameHeader, buf: Uint8Array, at: number) {
    const wasFirst = first;
    first = false;
    countFrame(stats, h, buf, at, wasFirst);
  }
  /** Scans `buf`; returns the accepted frame bytes and keeps the undecided tail in `carry`. */
  function scan(buf: Uint8Array, final: boolean): Uint8Array {
    let pos = 0;
    if (!started) {
      if (buf.length < 10 && !final) {
        carry = buf.slice();
        return EMPTY;
      }
      started = true;
      if (buf[0] === 0x49 && buf[1] === 0x44 && buf[2] === 0x33 && buf.length >= 10) {
        // ID3v2: a 10-byte header, a syncsafe size, and a 10-byte footer when flagged.
        skip = 10 + ((buf[6] << 21) | (buf[7] << 14) | (buf[8] << 7) | buf[9]) + (buf[5] & 0x10 ? 10 : 0);
        stats.id3Bytes = skip;
      }
    }
    if (skip > 0) {
      const n = Math.min(skip, buf.length);
      skip -= n;
      pos = n;
    }

    // Accepted frames as [start, end) ranges of buf, merged when contiguous.
    const ranges: number[] = [];
    /** Offsets in buf of the accepted free-format headers (rewritten in the copy handed over). */
    const freeHeads: number[] = [];
    const accept = (h: FrameHeader, at: number) => {
      if (h.freeFormat) freeHeads.push(at);
      count(h, buf, at);
      const end = at + h.length;
      if (ranges.length && ranges[ranges.length - 1] === at) ranges[ranges.length - 1] = end;
      else ranges.push(at, end);
    };

    while (pos < buf.length) {
      if (buf.length - pos < 4) break;
      if (run) {
        const h = parseFrameHeader(buf, pos, freeLength);
        if (h && agrees(h, run)) {
          if (pos + h.length > buf.length) break; // the rest of this frame is in the next chunk
          accept(h, pos);
          pos += h.length;
          continue;
        }
        run = null; // lost sync: junk or a tag between frames
      }
      let h = buf[pos] === 0xff ? parseFrameHeader(buf, pos, freeLength) : null;
      // Free format, its length not yet known: the distance to the next such header, within budget.
      let candidateFree = freeLength;
      if (
        !h && freeLength === 0 && !freeRefused && stats.freeFormatSearchedBytes < FREE_FORMAT_SEARCH_BUDGET &&
        isFreeFormat(buf, pos)
      ) {
        const found = freeFormatLength(buf, pos, addSearched);
        if (found && "short" in found && !final) break; // decide when more bytes are here
        if (found && "length" in found) {
          candidateFree = found.length;
          h = parseFrameHeader(buf, pos, candidateFree);
        }
      }
      if (!h) {
        pos++;
        continue;
      }
      // A candidate: the next headers must be where its length says, and agree.
      const { confirmed, short } = confirmHeaders(buf, pos, h, candidateFree);
      if (confirmed < CONFIRMING_HEADERS && !short) {
        pos++;
        continue;
      }
      if (short && !final) break; // decide when more bytes are here
      if (short && pos + h.length > buf.length) break; // the stream ends inside this frame
      // The stream ends inside the confirmation: the few whole frames left are taken only when
      // earlier frames already proved this is MP3 (two lone "frames" at the end of junk are not).
      if (short && stats.frames === 0 && !stats.tagFrame) break;
      if (h.freeFormat && freeLength === 0) {
        freeIndex = standardIndex(h, candidateFree);
        if (freeIndex === 0) {
          // Frames mpg123's WebAssembly build cannot decode: refused with their own reason.
          freeRefused = true;
          stats.unsupportedFreeFormatKbps = h.bitrateKbps;
          pos++;
          continue;
        }
        freeLength = candidateFree;
      }
      run = h;
    }
    carry = final ? EMPTY : keep(buf.subarray(pos));
    if (ranges.length === 0) return EMPTY;
    if (ranges.length === 2 && freeHeads.length === 0) return buf.subarray(ranges[0], ranges[1]);
    return gatherFrames(buf, ranges, freeHeads, freeIndex, scratch);
  }

  /**
   * Where the carried tail and the next chunk are joined: one buffer for the whole stream, since what
   * `push` returns is used before the next `push` (a new one per chunk was 64 KiB of garbage outside
   * the JavaScript heap for every 64 KiB read; 0104).
   */
  const joined = { buffer: EMPTY };
  const join = (chunk: Uint8Array) => joinChunk(carry, chunk, joined);

  return {
    push: (chunk) => (chunk.length === 0 ? EMPTY : scan(join(chunk), false)),
    finish: () => (carry.length === 0 ? EMPTY : scan(carry, true)),
    stats,
  };
}
