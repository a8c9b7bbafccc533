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

/** The reader's state, shared by the steps below (moved out of `createId3Reader`). */
interface Id3State {
  limits: Id3Limits;
  state: State;
  /** Bytes of the file seen so far (raw, as stored). */
  pos: number;
  /** End of the tag body in the raw file (the footer, when there is one, follows it). */
  bodyEnd: number;
  major: number;
  /** The whole tag is unsynchronised (v2.2, v2.3): the body is read through `resync`. */
  tagUnsync: boolean;
  lastWasFF: boolean;
  /** v2.4: every frame is unsynchronised (the tag's flag; each frame's own flag says so too). */
  framesUnsync: boolean;
  frames: number;
  /** A small buffer for the 10-byte tag header, a frame header or a text frame's first bytes. */
  buf: Uint8Array;
  have: number;
  need: number;
  skip: number;
  frame: { id: string; size: number; flags: number } | null;
  tags: Id3Tags;
}

function frameHeaderBytes(r: Id3State) {
  return r.major === 2 ? 6 : 10;
}

function startFrameHeader(r: Id3State) {
  r.state = "frame-header";
  r.have = 0;
  r.need = frameHeaderBytes(r);
}

function onTagHeader(r: Id3State) {
  if (r.buf[0] !== 0x49 || r.buf[1] !== 0x44 || r.buf[2] !== 0x33 || r.buf[3] < 2 || r.buf[3] > 4) {
    r.state = "done";
    return;
  }
  r.major = r.buf[3];
  const flags = r.buf[5];
  const body = ((r.buf[6] & 0x7f) << 21) | ((r.buf[7] & 0x7f) << 14) | ((r.buf[8] & 0x7f) << 7) | (r.buf[9] & 0x7f);
  // The footer flag counts as the frame splitter counts it (server/audio/mpeg-frames.ts).
  r.tags.tagBytes = 10 + body + (flags & 0x10 ? 10 : 0);
  if (r.tags.tagBytes > r.limits.maxBytes) throw new Id3TagRefused(r.limits);
  r.bodyEnd = 10 + body;
  r.tagUnsync = r.major < 4 && (flags & 0x80) !== 0;
  r.framesUnsync = r.major === 4 && (flags & 0x80) !== 0;
  if (r.major >= 3 && flags & 0x40) {
    // An extended header: its size (v2.3: the 4 bytes after it not counted; v2.4: syncsafe, counted)
    // is read as a frame header would be, then passed over.
    r.state = "frame-header";
    r.have = 0;
    r.need = 4;
    r.frame = { id: "", size: -1, flags: 0 };
    return;
  }
  startFrameHeader(r);
}

function onFrameHeader(r: Id3State) {
  if (r.frame && r.frame.size === -1) {
    // The extended header's size field.
    const n = r.major === 4
      ? ((r.buf[0] & 0x7f) << 21) | ((r.buf[1] & 0x7f) << 14) | ((r.buf[2] & 0x7f) << 7) | (r.buf[3] & 0x7f)
      : ((r.buf[0] << 24) >>> 0) + (r.buf[1] << 16) + (r.buf[2] << 8) + r.buf[3];
    r.frame = null;
    r.skip = r.major === 4 ? Math.max(0, n - 4) : n;
    r.state = "skip";
    return;
  }
  if (r.buf[0] === 0) {
    // Padding: no frame follows.
    r.state = "done";
    return;
  }
  const idLength = r.major === 2 ? 3 : 4;
  const id = String.fromCharCode(...r.buf.subarray(0, idLength));
  if (!/^[A-Z0-9]+$/.test(id)) {
    // Not a frame: a broken tag. What was read so far stands.
    r.state = "done";
    return;
  }
  if (++r.frames > r.limits.maxFrames) throw new Id3TagRefused(r.limits);
  let size: number;
  let flags = 0;
  if (r.major === 2) size = (r.buf[3] << 16) | (r.buf[4] << 8) | r.buf[5];
  else if (r.major === 3) size = ((r.buf[4] << 24) >>> 0) + (r.buf[5] << 16) + (r.buf[6] << 8) + r.buf[7];
  else size = ((r.buf[4] & 0x7f) << 21) | ((r.buf[5] & 0x7f) << 14) | ((r.buf[6] & 0x7f) << 7) | (r.buf[7] & 0x7f);
  if (r.major >= 3) flags = r.buf[9];
  const field = WANTED[id];
  // Compressed or encrypted frames are not read (v2.3: 0x80, 0x40; v2.4: 0x08, 0x04).
  const opaque = r.major === 3 ? (flags & 0xc0) !== 0 : r.major === 4 ? (flags & 0x0c) !== 0 : false;
  if (!field || opaque || size === 0 || r.tags[field] !== null) {
    r.skip = size;
    r.state = size > 0 ? "skip" : "frame-header";
    if (size === 0) startFrameHeader(r);
    return;
  }
  r.frame = { id, size, flags };
  const take = Math.min(size, r.limits.maxTextBytes);
  if (r.buf.length < take) r.buf = new Uint8Array(r.limits.maxTextBytes);
  r.have = 0;
  r.need = take;
  r.skip = size - take;
  r.state = "collect";
}

function onFrameBody(r: Id3State) {
  const f = r.frame!;
  r.frame = null;
  let data: Uint8Array = r.buf.subarray(0, r.have);
  if (r.major === 3 && f.flags & 0x20) data = data.subarray(1); // group byte
  if (r.major === 4) {
    if (f.flags & 0x40) data = data.subarray(1); // group byte
    if (f.flags & 0x01) data = data.subarray(4); // data length indicator
    if (f.flags & 0x02 || r.framesUnsync) data = resync(data);
  }
  const values = decodeText(data);
  if (values.length > 0) {
    const field = WANTED[f.id];
    r.tags[field] = field === "artist" ? joinArtists(values) : values.join(" / ");
  }
  r.state = r.skip > 0 ? "skip" : "frame-header";
  if (r.state === "frame-header") startFrameHeader(r);
}

/**
 * Push the file's chunks in order from its first byte until `done`; `tags` is then final. Throws
 * `Id3TagRefused` as soon as the budget is passed (at the header for a declared size over it).
 */
export function createId3Reader(limits: Id3Limits = ID3_LIMITS) {
  const r: Id3State = {
    limits,
    state: "header",
    pos: 0,
    bodyEnd: 0,
    major: 0,
    tagUnsync: false,
    lastWasFF: false,
    framesUnsync: false,
    frames: 0,
    buf: new Uint8Array(10),
    have: 0,
    need: 10,
    skip: 0,
    frame: null,
    tags: { tagBytes: 0, title: null, artist: null },
  };

  /** Reads the logical (resynchronised) body bytes `data`. */
  function body(data: Uint8Array) {
    let i = 0;
    while (i < data.length && r.state !== "done") {
      if (r.state === "skip") {
        const n = Math.min(r.skip, data.length - i);
        r.skip -= n;
        i += n;
        if (r.skip === 0) startFrameHeader(r);
        continue;
      }
      const n = Math.min(r.need - r.have, data.length - i);
      r.buf.set(data.subarray(i, i + n), r.have);
      r.have += n;
      i += n;
      if (r.have < r.need) return;
      if (r.state === "frame-header") onFrameHeader(r);
      else onFrameBody(r);
    }
  }

  return {
    tags: r.tags,
    get done() {
      return r.state === "done";
    },
    push(chunk: Uint8Array) {
      let c = chunk;
      if (r.state === "header") {
        const n = Math.min(10 - r.have, c.length);
        r.buf.set(c.subarray(0, n), r.have);
        r.have += n;
        r.pos += n;
        c = c.subarray(n);
        if (r.have < 10) return;
        onTagHeader(r);
      }
      if (r.state === "done") return;
      // Only the bytes inside the tag body.
      const inBody = c.subarray(0, Math.max(0, r.bodyEnd - r.pos));
      r.pos += c.length;
      if (r.pos >= r.bodyEnd) {
        // Whatever the frames said, the tag ends here.
        if (inBody.length > 0) body(logical(inBody));
        r.state = "done";
        return;
      }
      body(logical(inBody));
    },
  };

  /** The body bytes as the frames see them: resynchronised when the whole tag is (v2.2, v2.3). */
  function logical(raw: Uint8Array): Uint8Array {
    if (!r.tagUnsync) return raw;
    const out = new Uint8Array(raw.length);
    let n = 0;
    for (let i = 0; i < raw.length; i++) {
      const b = raw[i];
      if (!(r.lastWasFF && b === 0x00)) out[n++] = b;
      r.lastWasFF = b === 0xff;
    }
    return out.subarray(0, n);
  }
}
