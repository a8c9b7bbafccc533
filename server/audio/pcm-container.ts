/**
 * Uncompressed audio in its container, read as a stream (issue 34: a release's master): WAV (RIFF,
 * and RF64/BW64 for files past 4 GB, with WAVE_FORMAT_EXTENSIBLE), AIFF and AIFC (`NONE`, `sowt`
 * little-endian, `fl32`). Chunks before the audio are read or skipped as they arrive; the samples are
 * turned into planar float blocks of at most BLOCK_FRAMES frames, handed to a sink and forgotten, so
 * memory stays the same whatever the length. Which formats a release takes is not decided here
 * (server/releases/materials/judge.ts); this only says what the file is and decodes what it can.
 */

export interface PcmFormat {
  container: "wav" | "rf64" | "aiff" | "aifc" | "flac";
  /** `int`: signed (or, 8-bit WAV, unsigned) integers; `float`: IEEE floats. */
  encoding: "int" | "float";
  /** Bits per sample as stored (a 24-bit WAV's container size: 24). */
  bits: number;
  sampleRate: number;
  channels: number;
  /** Samples per channel the header declares; null when it does not (a streamed WAV, a FLAC without it). */
  declaredFrames: number | null;
}

/** Planar samples, `length` each, valid only during the call. */
export type PcmBlockSink = (channels: Float32Array[], length: number) => void;

export type PcmDecodeErrorCode = "empty" | "unknown" | "broken" | "codec";

/** The bytes are not audio this code can read; `detail` says what was found (for the reason). */
export class PcmDecodeError extends Error {
  override name = "PcmDecodeError";
  constructor(readonly code: PcmDecodeErrorCode, readonly detail = "") {
    super(`${code}${detail ? `: ${detail}` : ""}`);
  }
}

/** Frames per block handed to the sink. */
export const BLOCK_FRAMES = 4096;
/** A chunk before the audio we keep whole to read (fmt, ds64, COMM) may be at most this long. */
const MAX_HEADER_CHUNK = 1024 * 1024;
/** Channels a block may carry (a bound on what a header can make us allocate). */
const MAX_CHANNELS = 32;

type State =
  | { at: "head" }
  | { at: "chunk" }
  | { at: "body"; id: string; size: number }
  | { at: "skip"; left: number; then?: () => void }
  | { at: "data"; left: number }
  | { at: "done" };

/** The leading magic of a file: which reader takes it, or null. */
export function sniff(head: Uint8Array): "riff" | "aiff" | "flac" | null {
  const tag = ascii(head, 0, 4);
  if (tag === "fLaC") return "flac";
  if ((tag === "RIFF" || tag === "RF64" || tag === "BW64") && ascii(head, 8, 4) === "WAVE") return "riff";
  if (tag === "FORM" && (ascii(head, 8, 4) === "AIFF" || ascii(head, 8, 4) === "AIFC")) return "aiff";
  return null;
}

function ascii(b: Uint8Array, at: number, n: number): string {
  let s = "";
  for (let i = at; i < at + n && i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}

/** An 80-bit IEEE 754 extended float, big-endian (AIFF's sample rate). */
export function extendedFloat(b: Uint8Array, at: number): number {
  const sign = b[at] & 0x80 ? -1 : 1;
  const exponent = ((b[at] & 0x7f) << 8) | b[at + 1];
  let mantissa = 0;
  for (let i = 0; i < 8; i++) mantissa = mantissa * 256 + b[at + 2 + i];
  if (exponent === 0 && mantissa === 0) return 0;
  return sign * mantissa * 2 ** (exponent - 16383 - 63);
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** A WAV `fmt ` chunk: PCM (1) or IEEE float (3), plain or inside WAVE_FORMAT_EXTENSIBLE. */
function fmtChunk(b: Uint8Array, container: PcmFormat["container"]): PcmFormat {
  if (b.length < 16) throw new PcmDecodeError("broken", "fmt");
  const v = view(b);
  let tag = v.getUint16(0, true);
  // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of its sub-format GUID.
  if (tag === 0xfffe && b.length >= 26) tag = v.getUint16(24, true);
  if (tag !== 1 && tag !== 3) throw new PcmDecodeError("codec", `wav-format-0x${tag.toString(16)}`);
  return {
    container,
    encoding: tag === 3 ? "float" : "int",
    bits: v.getUint16(14, true),
    sampleRate: v.getUint32(4, true),
    channels: v.getUint16(2, true),
    declaredFrames: null,
  };
}

/** An AIFF/AIFC `COMM` chunk, and whether its samples are little-endian (AIFC `sowt`). */
function commChunk(b: Uint8Array, container: PcmFormat["container"]): { format: PcmFormat; little: boolean } {
  if (b.length < 18) throw new PcmDecodeError("broken", "COMM");
  const v = view(b);
  let encoding: PcmFormat["encoding"] = "int";
  let little = false;
  if (container === "aifc") {
    const codec = b.length >= 22 ? ascii(b, 18, 4) : "NONE";
    if (codec === "sowt") little = true;
    else if (codec === "fl32" || codec === "FL32") encoding = "float";
    else if (codec !== "NONE" && codec !== "twos") throw new PcmDecodeError("codec", `aifc-${codec.trim()}`);
  }
  const bits = v.getUint16(6, false);
  return {
    format: {
      container,
      encoding,
      bits: encoding === "float" ? 32 : bits,
      sampleRate: Math.round(extendedFloat(b, 8)),
      channels: v.getUint16(0, false),
      declaredFrames: v.getUint32(2, false),
    },
    little,
  };
}

/**
 * Interleaved sample bytes to planar float blocks of at most BLOCK_FRAMES, a frame split across two
 * pushes carried over.
 */
class FrameBlocks {
  readonly #convert: Convert;
  readonly #align: number;
  readonly #out: Float32Array[];
  readonly #carry: Uint8Array;
  readonly #carryView: DataView;
  #carried = 0;
  frames = 0;

  constructor(format: PcmFormat, little: boolean, readonly sink: PcmBlockSink) {
    const convert = converter(format, little);
    if (!convert) throw new PcmDecodeError("codec", `${format.encoding}${format.bits}`);
    this.#convert = convert;
    this.#align = (format.bits / 8) * format.channels;
    this.#out = Array.from({ length: format.channels }, () => new Float32Array(BLOCK_FRAMES));
    this.#carry = new Uint8Array(this.#align);
    this.#carryView = new DataView(this.#carry.buffer);
  }

  push(src: Uint8Array): void {
    const align = this.#align, out = this.#out, convert = this.#convert;
    let at = 0;
    let n = 0;
    const v = view(src);
    const flush = () => {
      if (n > 0) this.sink(out, n);
      this.frames += n;
      n = 0;
    };
    if (this.#carried > 0) {
      const take = Math.min(align - this.#carried, src.length);
      this.#carry.set(src.subarray(0, take), this.#carried);
      this.#carried += take;
      at = take;
      if (this.#carried < align) return;
      convert(this.#carry, this.#carryView, 0, out, n++);
      this.#carried = 0;
    }
    for (; at + align <= src.length; at += align) {
      convert(src, v, at, out, n++);
      if (n === BLOCK_FRAMES) flush();
    }
    flush();
    if (at < src.length) {
      this.#carry.set(src.subarray(at), 0);
      this.#carried = src.length - at;
    }
  }
}

/**
 * The bytes of a WAV's `data` chunk, and its frames noted on the format: an RF64 file's from its
 * `ds64`; a writer that could not seek back leaves 0 or 0xFFFFFFFF, and the audio runs to the end.
 */
function wavDataBytes(f: PcmFormat, size: number, ds64: number | null): number {
  let bytes = size === 0xffffffff && ds64 !== null ? ds64 : size;
  if (size === 0 || (size === 0xffffffff && ds64 === null)) bytes = Infinity;
  const frameBytes = (f.bits / 8) * f.channels;
  if (Number.isFinite(bytes) && frameBytes > 0) f.declaredFrames = Math.floor(bytes / frameBytes);
  return bytes;
}

export interface PcmReader {
  /** Feeds bytes in order. Throws PcmDecodeError on a file it cannot read. */
  push(bytes: Uint8Array): void;
  /** The end of the file: throws when no audio was found. */
  finish(): void;
  /** Known once the format chunk has been read. */
  readonly format: PcmFormat | null;
  /** Frames handed to the sink so far. */
  readonly frames: number;
}

/**
 * A reader for RIFF/RF64 WAV or AIFF/AIFC (`kind` from `sniff`). `onFormat` is called once, when the
 * audio starts: returning false stops decoding (the caller refuses the file on its format alone).
 */
export function createPcmReader(
  kind: "riff" | "aiff",
  sink: PcmBlockSink,
  onFormat: (format: PcmFormat) => boolean,
): PcmReader {
  const little = kind === "riff";
  let state: State = { at: "head" };
  let hold = new Uint8Array(12);
  let held = 0;
  let format: PcmFormat | null = null;
  let container: PcmFormat["container"] = kind === "riff" ? "wav" : "aiff";
  let dataLittle = little;
  let ds64DataSize: number | null = null;
  let blocks: FrameBlocks | null = null;
  let aiffDataBytes = 0;

  const need = (n: number) => {
    if (hold.length < n) hold = new Uint8Array(n);
    held = 0;
  };

  function startAudio(f: PcmFormat, dataBytes: number) {
    if (f.channels < 1 || f.channels > MAX_CHANNELS || !(f.sampleRate > 0) || !(f.sampleRate < 1e7)) {
      throw new PcmDecodeError("broken", "format");
    }
    format = f;
    blocks = new FrameBlocks(f, dataLittle, sink);
    state = onFormat(f) ? { at: "data", left: dataBytes } : { at: "done" };
  }

  function chunkDone(id: string, body: Uint8Array) {
    if (kind === "riff") {
      if (id === "ds64" && body.length >= 16) ds64DataSize = Number(view(body).getBigUint64(8, true));
      else if (id === "fmt ") pendingFormat = fmtChunk(body, container);
      return;
    }
    if (id === "COMM") {
      const comm = commChunk(body, container);
      pendingFormat = comm.format;
      dataLittle = comm.little;
    }
  }

  let pendingFormat: PcmFormat | null = null;

  function enterChunk(id: string, size: number) {
    const isData = kind === "riff" ? id === "data" : id === "SSND";
    if (isData) {
      if (!pendingFormat) throw new PcmDecodeError("broken", "no-format");
      if (kind === "riff") startAudio(pendingFormat, wavDataBytes(pendingFormat, size, ds64DataSize));
      else {
        // SSND: offset and block size first, then `offset` bytes before the samples.
        state = { at: "body", id, size: 8 };
        need(8);
        aiffDataBytes = size - 8;
      }
      return;
    }
    const padded = size + (size & 1);
    if (id === "fmt " || id === "ds64" || id === "COMM") {
      if (size > MAX_HEADER_CHUNK) throw new PcmDecodeError("broken", id);
      state = { at: "body", id, size };
      need(size);
      padLeft = padded - size;
    } else state = { at: "skip", left: padded };
  }

  let padLeft = 0;

  function nextChunk() {
    if (padLeft > 0) {
      state = { at: "skip", left: padLeft };
      padLeft = 0;
    } else {
      state = { at: "chunk" };
      need(8);
    }
  }

  return {
    get format() {
      return format;
    },
    get frames() {
      return blocks?.frames ?? 0;
    },
    push(bytes) {
      let off = 0;
      while (off < bytes.length) {
        const s: State = state;
        if (s.at === "done") return;
        if (s.at === "skip") {
          const take = Math.min(s.left, bytes.length - off);
          off += take;
          s.left -= take;
          if (s.left === 0) {
            if (s.then) s.then();
            else nextChunk();
          }
          continue;
        }
        if (s.at === "data") {
          const take = Math.min(s.left, bytes.length - off);
          blocks!.push(bytes.subarray(off, off + take));
          off += take;
          s.left -= take;
          if (s.left === 0) state = { at: "done" };
          continue;
        }
        const want = s.at === "head" ? 12 : s.at === "chunk" ? 8 : s.size;
        const take = Math.min(want - held, bytes.length - off);
        hold.set(bytes.subarray(off, off + take), held);
        held += take;
        off += take;
        if (held < want) continue;
        const got = hold.subarray(0, want);
        if (s.at === "head") {
          const tag = ascii(got, 0, 4);
          if (tag === "RF64" || tag === "BW64") container = "rf64";
          if (ascii(got, 8, 4) === "AIFC") container = "aifc";
          state = { at: "chunk" };
          need(8);
        } else if (s.at === "chunk") {
          enterChunk(ascii(got, 0, 4), view(got).getUint32(4, little));
        } else if (s.id === "SSND") {
          const offset = new DataView(got.buffer, got.byteOffset, 8).getUint32(0, false);
          const f = pendingFormat!;
          const audioBytes = Math.max(0, aiffDataBytes - offset);
          // Samples may start after a block-alignment offset (rare): skipped first.
          if (offset > 0) state = { at: "skip", left: offset, then: () => startAudio(f, audioBytes) };
          else startAudio(f, audioBytes);
        } else {
          chunkDone(s.id, got.slice());
          nextChunk();
        }
      }
    },
    finish() {
      if (!format || !blocks || blocks.frames === 0) throw new PcmDecodeError("broken", "no-audio");
    },
  };
}

/**
 * The frame converter for a format: reads one frame at `at` into `out[c][frame]`. Null for a
 * sample size no converter exists for.
 */
type Convert = (src: Uint8Array, view: DataView, at: number, out: Float32Array[], frame: number) => void;

function converter(f: PcmFormat, little: boolean): Convert | null {
  const ch = f.channels;
  if (f.encoding === "float") {
    if (f.bits === 32) {
      return (_src, v, at, out, frame) => {
        for (let c = 0; c < ch; c++) out[c][frame] = v.getFloat32(at + c * 4, little);
      };
    }
    if (f.bits === 64) {
      return (_src, v, at, out, frame) => {
        for (let c = 0; c < ch; c++) out[c][frame] = v.getFloat64(at + c * 8, little);
      };
    }
    return null;
  }
  switch (f.bits) {
    case 8:
      // WAV's 8-bit samples are unsigned; AIFF's are signed.
      return f.container === "wav" || f.container === "rf64"
        ? (src, _v, at, out, frame) => {
          for (let c = 0; c < ch; c++) out[c][frame] = (src[at + c] - 128) / 128;
        }
        : (src, _v, at, out, frame) => {
          for (let c = 0; c < ch; c++) out[c][frame] = ((src[at + c] << 24) >> 24) / 128;
        };
    case 16:
      return (src, _v, at, out, frame) => {
        for (let c = 0, p = at; c < ch; c++, p += 2) {
          const v = little ? src[p] | (src[p + 1] << 8) : (src[p] << 8) | src[p + 1];
          out[c][frame] = ((v << 16) >> 16) / 32768;
        }
      };
    case 24:
      return (src, _v, at, out, frame) => {
        for (let c = 0, p = at; c < ch; c++, p += 3) {
          const v = little
            ? src[p] | (src[p + 1] << 8) | (src[p + 2] << 16)
            : (src[p] << 16) | (src[p + 1] << 8) | src[p + 2];
          out[c][frame] = ((v << 8) >> 8) / 8388608;
        }
      };
    case 32:
      return (src, _v, at, out, frame) => {
        for (let c = 0, p = at; c < ch; c++, p += 4) {
          const v = little
            ? src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)
            : (src[p] << 24) | (src[p + 1] << 16) | (src[p + 2] << 8) | src[p + 3];
          out[c][frame] = v / 2147483648;
        }
      };
    default:
      return null;
  }
}
