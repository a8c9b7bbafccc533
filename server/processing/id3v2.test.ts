import { describe, expect, it } from "vitest";
import { id3Frame, id3Header, id3Tag, utf8Text } from "../testing/hostile-mp3.ts";
import { fixture, FIXTURES } from "../testing/upload-helpers.ts";
import { createId3Reader, ID3_LIMITS, ID3_REFUSED_MESSAGE, Id3TagRefused } from "./id3v2.ts";

/** Reads `data` in chunks of `chunk` bytes until the reader is done; what it found, or its refusal. */
function read(data: Uint8Array, chunk = data.length || 1, limits = ID3_LIMITS) {
  const r = createId3Reader(limits);
  let pushed = 0;
  try {
    for (let i = 0; i < data.length && !r.done; i += chunk) {
      r.push(data.subarray(i, i + chunk));
      pushed = Math.min(data.length, i + chunk);
    }
  } catch (err) {
    if (err instanceof Id3TagRefused) return { refused: err.message, pushed };
    throw err;
  }
  return { ...r.tags, pushed };
}

const CHUNKS = [1, 3, 7, 11, 4096, 65536];

function utf16(text: string, bom: "le" | "be" | "none", encoding = 1): Uint8Array {
  const units = [...text].flatMap((c) => {
    const u = c.charCodeAt(0);
    return bom === "be" || encoding === 2 ? [u >> 8, u & 0xff] : [u & 0xff, u >> 8];
  });
  const mark = bom === "le" ? [0xff, 0xfe] : bom === "be" ? [0xfe, 0xff] : [];
  return new Uint8Array([encoding, ...mark, ...units]);
}

describe("own ID3v2 reader", () => {
  it("reads the title and artist of the fixture as music-metadata did, whatever the chunk size", () => {
    for (const size of CHUNKS) {
      expect(read(fixture(FIXTURES.amen), size)).toMatchObject({ title: "Amen Study", artist: "Test Artist" });
    }
  });

  it("passes over a large picture and other frames without reading them, in v2.3 and v2.4", () => {
    const picture = new Uint8Array(3 * 1024 * 1024).fill(0xff);
    for (const major of [3, 4]) {
      const tag = id3Tag([
        id3Frame("APIC", picture, major),
        id3Frame("TXXX", new Uint8Array([0, 0x61, 0, 0x62]), major),
        id3Frame("TPE1", utf16("Артист", "le"), major),
        id3Frame("TIT2", utf8Text("Трек\0"), major),
        new Uint8Array(100), // padding
      ], major);
      for (const size of [4096, 65536]) {
        expect(read(tag, size)).toMatchObject({ title: "Трек", artist: "Артист", tagBytes: tag.length });
      }
    }
  });

  it("reads UTF-16 without a mark and big-endian, Latin-1, and several artists as music-metadata joins them", () => {
    const tag = id3Tag([
      id3Frame("TIT2", new Uint8Array([0, 0x43, 0x61, 0x66, 0xe9])),
      id3Frame("TPE1", utf8Text("A\0B\0C"), 4),
    ], 4);
    expect(read(tag)).toMatchObject({ title: "Café", artist: "A, B & C" });
    const be = id3Tag([id3Frame("TIT2", utf16("Ночь", "be")), id3Frame("TPE1", utf16("Z", "none", 2))]);
    expect(read(be)).toMatchObject({ title: "Ночь", artist: "Z" });
  });

  it("reads an ID3v2.2 tag (three-letter frames)", () => {
    const frame = (id: string, text: string) => {
      const body = new TextEncoder().encode(`\0${text}`);
      return new Uint8Array([...new TextEncoder().encode(id), 0, 0, body.length, ...body]);
    };
    const body = [...frame("TT2", "Old"), ...frame("TP1", "Timer")];
    const tag = new Uint8Array([...id3Header(body.length, 2), ...body]);
    for (const size of CHUNKS) expect(read(tag, size)).toMatchObject({ title: "Old", artist: "Timer" });
  });

  it("undoes unsynchronisation of a whole v2.3 tag and of a v2.4 frame", () => {
    // "ÿ" is 0xFF in Latin-1: unsynchronised, a 0x00 follows it in the file.
    const text = new Uint8Array([0, 0x41, 0xff, 0x00, 0x42]);
    const frame = id3Frame("TIT2", new Uint8Array([0, 0x41, 0xff, 0x42]));
    const raw: number[] = [];
    for (const b of frame) raw.push(...(b === 0xff ? [0xff, 0x00] : [b]));
    const v23 = new Uint8Array([...id3Header(raw.length, 3, 0x80), ...raw]);
    for (const size of CHUNKS) expect(read(v23, size)).toMatchObject({ title: "AÿB" });

    const f4 = id3Frame("TIT2", text, 4);
    f4[9] = 0x02; // this frame is unsynchronised
    expect(read(id3Tag([f4], 4))).toMatchObject({ title: "AÿB" });
  });

  it("passes over an extended header", () => {
    const frames = id3Frame("TIT2", utf8Text("After"));
    const ext = new Uint8Array([0, 0, 0, 6, 0, 0, 0, 0, 0, 0]);
    const tag = new Uint8Array([...id3Header(ext.length + frames.length, 3, 0x40), ...ext, ...frames]);
    expect(read(tag, 5)).toMatchObject({ title: "After" });
  });

  it("gives nothing for a file without a tag, and the tag's size for one without those frames", () => {
    expect(read(fixture(FIXTURES.low))).toMatchObject({ tagBytes: 0, title: null, artist: null });
    const tag = id3Tag([id3Frame("TALB", utf8Text("Album"))]);
    expect(read(tag)).toMatchObject({ tagBytes: tag.length, title: null, artist: null });
  });

  it("refuses a tag that declares more than its byte budget at its header, reading nothing more", () => {
    const header = id3Header(ID3_LIMITS.maxBytes);
    const data = new Uint8Array(64 * 1024);
    data.set(header);
    expect(read(data, 10)).toEqual({ refused: ID3_REFUSED_MESSAGE(), pushed: 0 });
  });

  it("refuses a tag of more frames than its budget as soon as it passes it", () => {
    const tiny = id3Frame("TXXX", new Uint8Array([0, 0, 0x78]));
    const count = 5000;
    const body = new Uint8Array(tiny.length * count);
    for (let i = 0; i < count; i++) body.set(tiny, i * tiny.length);
    const tag = new Uint8Array([...id3Header(body.length), ...body]);
    const r = read(tag, 1024);
    expect(r).toMatchObject({ refused: ID3_REFUSED_MESSAGE() });
    // Stopped right after the 1001st frame, not at the tag's end.
    expect(r.pushed).toBeLessThan(10 + tiny.length * (ID3_LIMITS.maxFrames + 1) + 1024);
    expect(ID3_REFUSED_MESSAGE()).toBe(
      "Теги ID3 в файле слишком большие (больше 16 МБ или больше 1000 записей). Удалите лишние теги и загрузите файл ещё раз.",
    );
  });

  it("reads only the first bytes of an overlong title", () => {
    const tag = id3Tag([id3Frame("TIT2", utf8Text("x".repeat(100_000))), id3Frame("TPE1", utf8Text("After Long"))]);
    const r = read(tag, 4096) as { title: string; artist: string };
    expect(r.title.length).toBeLessThan(ID3_LIMITS.maxTextBytes);
    expect(r.artist).toBe("After Long");
  });
});
