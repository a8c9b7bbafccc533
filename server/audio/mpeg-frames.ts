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
}

/** The layer III frame header at `b[at..at+3]`, or null when those bytes are not one. */
export function parseFrameHeader(b: Uint8Array, at: number): FrameHeader | null {
  if (b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1] >> 3) & 3;
  const layer = (b[at + 1] >> 1) & 3;
  const bitrateIndex = b[at + 2] >> 4;
  const rateIndex = (b[at + 2] >> 2) & 3;
  // Version 1 is reserved; layer 1 (the bits 01) is layer III; index 0 is "free format", 15 is invalid.
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = version === 3;
  const bitrateKbps = BITRATES[mpeg1 ? 0 : 1][bitrateIndex];
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const padding = (b[at + 2] >> 1) & 1;
  const mono = b[at + 3] >> 6 === 3;
  return {
    version,
    bitrateKbps,
    sampleRate,
    channels: mono ? 1 : 2,
    samples: mpeg1 ? 1152 : 576,
    length: Math.floor(((mpeg1 ? 144 : 72) * bitrateKbps * 1000) / sampleRate) + padding,
    sideInfoEnd: 4 + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)),
  };
}

const agrees = (a: FrameHeader, b: FrameHeader) =>
  a.version === b.version && a.sampleRate === b.sampleRate && a.channels === b.channels;

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
}

export interface FrameSplitter {
  push(chunk: Uint8Array): Uint8Array;
  /** End of stream: the frames still held that the end confirms. */
  finish(): Uint8Array;
  readonly stats: FrameStats;
}

const EMPTY = new Uint8Array(0);

export function createFrameSplitter(): FrameSplitter {
  const stats: FrameStats = {
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
  };
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
  /** The first frame of the stream (which may be a tag) is still to come. */
  let first = true;

  function count(h: FrameHeader, buf: Uint8Array, at: number) {
    if (first) {
      first = false;
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
    if (stats.frames === 0) stats.firstBitrateKbps = h.bitrateKbps;
    else if (h.bitrateKbps !== stats.firstBitrateKbps) stats.constantBitrate = false;
    stats.frames++;
    stats.bytes += h.length;
    stats.samples += h.samples;
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
    const accept = (h: FrameHeader, at: number) => {
      count(h, buf, at);
      const end = at + h.length;
      if (ranges.length && ranges[ranges.length - 1] === at) ranges[ranges.length - 1] = end;
      else ranges.push(at, end);
    };

    while (pos < buf.length) {
      if (buf.length - pos < 4) break;
      if (run) {
        const h = parseFrameHeader(buf, pos);
        if (h && agrees(h, run)) {
          if (pos + h.length > buf.length) break; // the rest of this frame is in the next chunk
          accept(h, pos);
          pos += h.length;
          continue;
        }
        run = null; // lost sync: junk or a tag between frames
      }
      const h = buf[pos] === 0xff ? parseFrameHeader(buf, pos) : null;
      if (!h) {
        pos++;
        continue;
      }
      // A candidate: the next headers must be where its length says, and agree.
      let at = pos + h.length;
      let confirmed = 0;
      let short = false;
      while (confirmed < CONFIRMING_HEADERS) {
        if (at + 4 > buf.length) {
          short = true;
          break;
        }
        const next = parseFrameHeader(buf, at);
        if (!next || !agrees(next, h)) break;
        confirmed++;
        at += next.length;
      }
      if (confirmed < CONFIRMING_HEADERS && !short) {
        pos++;
        continue;
      }
      if (short && !final) break; // decide when more bytes are here
      if (short && pos + h.length > buf.length) break; // the stream ends inside this frame
      // The stream ends inside the confirmation: the few whole frames left are taken only when
      // earlier frames already proved this is MP3 (two lone "frames" at the end of junk are not).
      if (short && stats.frames === 0 && !stats.tagFrame) break;
      run = h;
    }
    carry = final ? EMPTY : keep(buf.subarray(pos));
    if (ranges.length === 0) return EMPTY;
    if (ranges.length === 2) return buf.subarray(ranges[0], ranges[1]);
    let size = 0;
    for (let i = 0; i < ranges.length; i += 2) size += ranges[i + 1] - ranges[i];
    const out = new Uint8Array(size);
    for (let i = 0, o = 0; i < ranges.length; i += 2) {
      out.set(buf.subarray(ranges[i], ranges[i + 1]), o);
      o += ranges[i + 1] - ranges[i];
    }
    return out;
  }

  /**
   * Where the carried tail and the next chunk are joined: one buffer for the whole stream, since what
   * `push` returns is used before the next `push` (a new one per chunk was 64 KiB of garbage outside
   * the JavaScript heap for every 64 KiB read; 0104).
   */
  let joined = EMPTY;
  const join = (chunk: Uint8Array) => {
    if (carry.length === 0) return chunk;
    const size = carry.length + chunk.length;
    if (joined.length < size) joined = new Uint8Array(size + 16 * 1024);
    const buf = joined.subarray(0, size);
    buf.set(carry);
    buf.set(chunk, carry.length);
    return buf;
  };

  return {
    push: (chunk) => (chunk.length === 0 ? EMPTY : scan(join(chunk), false)),
    finish: () => (carry.length === 0 ? EMPTY : scan(carry, true)),
    stats,
  };
}
