/**
 * Our own reader of the leading ID3v2 tag (v2.2, v2.3, v2.4; id3.org's "ID3 tag version 2.x"
 * documents), fed the file's chunks as the one processing pass reads them. It keeps only what the
 * product uses, the title (TIT2/TT2) and the artist (TPE1/TP1), and passes over every other frame
 * (pictures, TXXX, private data) by counting its bytes, never holding it. Nothing it reads is held
 * longer than one small text frame, whatever size the tag declares.
 *
 * It has a budget: a tag that declares more than `maxBytes`, or holds more than `maxFrames` frames,
 * is refused with a Russian reason (`Id3TagRefused`). music-metadata, which read the whole declared
 * tag, grew the server by ~1 GB and held the event loop for 14–30 s on one 47 MB tag of 3.4 million
 * TXXX frames (issue 20; docs/decisions/0192-own-id3v2-reader-with-a-budget.md).
 */

export interface Id3Limits {
  /** Bytes the tag may declare (header, body and footer). */
  maxBytes: number;
  /** Frames the tag may hold, padding not counted. */
  maxFrames: number;
  /** Bytes of a title or artist frame that are read; the rest is passed over. */
  maxTextBytes: number;
}

export const ID3_LIMITS: Id3Limits = { maxBytes: 16 * 1024 * 1024, maxFrames: 1000, maxTextBytes: 4096 };

export const ID3_REFUSED_MESSAGE = (limits: Id3Limits = ID3_LIMITS) =>
  `Теги ID3 в файле слишком большие (больше ${Math.round(limits.maxBytes / (1024 * 1024))} МБ ` +
  `или больше ${limits.maxFrames} записей). Удалите лишние теги и загрузите файл ещё раз.`;

/** The tag is over the budget; `message` is the reason shown to the artist. */
export class Id3TagRefused extends Error {
  override name = "Id3TagRefused";
  constructor(limits: Id3Limits) {
    super(ID3_REFUSED_MESSAGE(limits));
  }
}

export interface Id3Tags {
  /** Bytes of the whole tag (header, body, footer) from the start of the file; 0 without one. */
  tagBytes: number;
  title: string | null;
  artist: string | null;
}

/** How music-metadata joins several artists, so that stored names keep their form. */
function joinArtists(artists: string[]): string {
  if (artists.length > 2) return `${artists.slice(0, -1).join(", ")} & ${artists[artists.length - 1]}`;
  return artists.join(" & ");
}

const WANTED: Record<string, "title" | "artist"> = { TIT2: "title", TT2: "title", TPE1: "artist", TP1: "artist" };

/** Drops the 0x00 that unsynchronisation puts after every 0xFF. */
function resync(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    out[n++] = data[i];
    if (data[i] === 0xff && data[i + 1] === 0x00) i++;
  }
  return out.subarray(0, n);
}

function decodeText(data: Uint8Array): string[] {
  if (data.length === 0) return [];
  const body = data.subarray(1);
  let text: string;
  switch (data[0]) {
    case 0:
      text = new TextDecoder("latin1").decode(body);
      break;
    case 1: {
      // UTF-16 with a byte order mark (little-endian when it is missing).
      const be = body[0] === 0xfe && body[1] === 0xff;
      const bom = (body[0] === 0xff && body[1] === 0xfe) || be ? 2 : 0;
      text = new TextDecoder(be ? "utf-16be" : "utf-16le").decode(body.subarray(bom));
      break;
    }
    case 2:
      text = new TextDecoder("utf-16be").decode(body);
      break;
    default:
      text = new TextDecoder("utf-8").decode(body);
  }
  return text.split("\0").map((v) => v.trim()).filter((v) => v.length > 0);
}

type State = "header" | "frame-header" | "collect" | "skip" | "done";

/**
 * Push the file's chunks in order from its first byte until `done`; `tags` is then final. Throws
 * `Id3TagRefused` as soon as the budget is passed (at the header for a declared size over it).
 */
export function createId3Reader(limits: Id3Limits = ID3_LIMITS) {
  let state: State = "header";
  /** Bytes of the file seen so far (raw, as stored). */
  let pos = 0;
  /** End of the tag body in the raw file (the footer, when there is one, follows it). */
  let bodyEnd = 0;
  let major = 0;
  /** The whole tag is unsynchronised (v2.2, v2.3): the body is read through `resync`. */
  let tagUnsync = false;
  let lastWasFF = false;
  /** v2.4: every frame is unsynchronised (the tag's flag; each frame's own flag says so too). */
  let framesUnsync = false;
  let frames = 0;
  /** A small buffer for the 10-byte tag header, a frame header or a text frame's first bytes. */
  let buf = new Uint8Array(10);
  let have = 0;
  let need = 10;
  let skip = 0;
  let frame: { id: string; size: number; flags: number } | null = null;
  const tags: Id3Tags = { tagBytes: 0, title: null, artist: null };

  const frameHeaderBytes = () => (major === 2 ? 6 : 10);

  function startFrameHeader() {
    state = "frame-header";
    have = 0;
    need = frameHeaderBytes();
  }

  function onTagHeader() {
    if (buf[0] !== 0x49 || buf[1] !== 0x44 || buf[2] !== 0x33 || buf[3] < 2 || buf[3] > 4) {
      state = "done";
      return;
    }
    major = buf[3];
    const flags = buf[5];
    const body = ((buf[6] & 0x7f) << 21) | ((buf[7] & 0x7f) << 14) | ((buf[8] & 0x7f) << 7) | (buf[9] & 0x7f);
    // The footer flag counts as the frame splitter counts it (server/audio/mpeg-frames.ts).
    tags.tagBytes = 10 + body + (flags & 0x10 ? 10 : 0);
    if (tags.tagBytes > limits.maxBytes) throw new Id3TagRefused(limits);
    bodyEnd = 10 + body;
    tagUnsync = major < 4 && (flags & 0x80) !== 0;
    framesUnsync = major === 4 && (flags & 0x80) !== 0;
    if (major >= 3 && flags & 0x40) {
      // An extended header: its size (v2.3: the 4 bytes after it not counted; v2.4: syncsafe, counted)
      // is read as a frame header would be, then passed over.
      state = "frame-header";
      have = 0;
      need = 4;
      frame = { id: "", size: -1, flags: 0 };
      return;
    }
    startFrameHeader();
  }

  function onFrameHeader() {
    if (frame && frame.size === -1) {
      // The extended header's size field.
      const n = major === 4
        ? ((buf[0] & 0x7f) << 21) | ((buf[1] & 0x7f) << 14) | ((buf[2] & 0x7f) << 7) | (buf[3] & 0x7f)
        : ((buf[0] << 24) >>> 0) + (buf[1] << 16) + (buf[2] << 8) + buf[3];
      frame = null;
      skip = major === 4 ? Math.max(0, n - 4) : n;
      state = "skip";
      return;
    }
    if (buf[0] === 0) {
      // Padding: no frame follows.
      state = "done";
      return;
    }
    const idLength = major === 2 ? 3 : 4;
    const id = String.fromCharCode(...buf.subarray(0, idLength));
    if (!/^[A-Z0-9]+$/.test(id)) {
      // Not a frame: a broken tag. What was read so far stands.
      state = "done";
      return;
    }
    if (++frames > limits.maxFrames) throw new Id3TagRefused(limits);
    let size: number;
    let flags = 0;
    if (major === 2) size = (buf[3] << 16) | (buf[4] << 8) | buf[5];
    else if (major === 3) size = ((buf[4] << 24) >>> 0) + (buf[5] << 16) + (buf[6] << 8) + buf[7];
    else size = ((buf[4] & 0x7f) << 21) | ((buf[5] & 0x7f) << 14) | ((buf[6] & 0x7f) << 7) | (buf[7] & 0x7f);
    if (major >= 3) flags = buf[9];
    const field = WANTED[id];
    // Compressed or encrypted frames are not read (v2.3: 0x80, 0x40; v2.4: 0x08, 0x04).
    const opaque = major === 3 ? (flags & 0xc0) !== 0 : major === 4 ? (flags & 0x0c) !== 0 : false;
    if (!field || opaque || size === 0 || tags[field] !== null) {
      skip = size;
      state = size > 0 ? "skip" : "frame-header";
      if (size === 0) startFrameHeader();
      return;
    }
    frame = { id, size, flags };
    const take = Math.min(size, limits.maxTextBytes);
    if (buf.length < take) buf = new Uint8Array(limits.maxTextBytes);
    have = 0;
    need = take;
    skip = size - take;
    state = "collect";
  }

  function onFrameBody() {
    const f = frame!;
    frame = null;
    let data: Uint8Array = buf.subarray(0, have);
    if (major === 3 && f.flags & 0x20) data = data.subarray(1); // group byte
    if (major === 4) {
      if (f.flags & 0x40) data = data.subarray(1); // group byte
      if (f.flags & 0x01) data = data.subarray(4); // data length indicator
      if (f.flags & 0x02 || framesUnsync) data = resync(data);
    }
    const values = decodeText(data);
    if (values.length > 0) {
      const field = WANTED[f.id];
      tags[field] = field === "artist" ? joinArtists(values) : values.join(" / ");
    }
    state = skip > 0 ? "skip" : "frame-header";
    if (state === "frame-header") startFrameHeader();
  }

  /** Reads the logical (resynchronised) body bytes `data`. */
  function body(data: Uint8Array) {
    let i = 0;
    while (i < data.length && state !== "done") {
      if (state === "skip") {
        const n = Math.min(skip, data.length - i);
        skip -= n;
        i += n;
        if (skip === 0) startFrameHeader();
        continue;
      }
      const n = Math.min(need - have, data.length - i);
      buf.set(data.subarray(i, i + n), have);
      have += n;
      i += n;
      if (have < need) return;
      if (state === "frame-header") onFrameHeader();
      else onFrameBody();
    }
  }

  return {
    tags,
    get done() {
      return state === "done";
    },
    push(chunk: Uint8Array) {
      let c = chunk;
      if (state === "header") {
        const n = Math.min(10 - have, c.length);
        buf.set(c.subarray(0, n), have);
        have += n;
        pos += n;
        c = c.subarray(n);
        if (have < 10) return;
        onTagHeader();
      }
      if (state === "done") return;
      // Only the bytes inside the tag body.
      const inBody = c.subarray(0, Math.max(0, bodyEnd - pos));
      pos += c.length;
      if (pos >= bodyEnd) {
        // Whatever the frames said, the tag ends here.
        if (inBody.length > 0) body(logical(inBody));
        state = "done";
        return;
      }
      body(logical(inBody));
    },
  };

  /** The body bytes as the frames see them: resynchronised when the whole tag is (v2.2, v2.3). */
  function logical(raw: Uint8Array): Uint8Array {
    if (!tagUnsync) return raw;
    const out = new Uint8Array(raw.length);
    let n = 0;
    for (let i = 0; i < raw.length; i++) {
      const b = raw[i];
      if (!(lastWasFF && b === 0x00)) out[n++] = b;
      lastWasFF = b === 0xff;
    }
    return out.subarray(0, n);
  }
}
