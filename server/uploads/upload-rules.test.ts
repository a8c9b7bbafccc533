import { describe, expect, it } from "vitest";
import type { Direction } from "../../domain/directions.ts";
import { DIRECTION_PAIRS, INVALID_NAMES, specConflict, VALID_NAMES } from "../testing/rule-cases.ts";
import { addDirections, checkFilePart, faultsMessage, MAX_FILENAME_LENGTH } from "./upload-rules.ts";
import { fileTooLargeMessage } from "../../domain/upload-limits.ts";

describe("file parts", () => {
  it.each(VALID_NAMES)("accepts %j", (name) => {
    expect(checkFilePart(name, "audio/mpeg")).toBeNull();
  });

  it.each(INVALID_NAMES)("refuses the name %j", (name) => {
    expect(checkFilePart(name, "audio/mpeg")).toBe("name");
  });

  it("refuses names with control characters or past the length limit", () => {
    expect(checkFilePart("Art\u0000ist - Title.mp3", "audio/mpeg")).toBe("name");
    expect(checkFilePart("Artist - Ti\ntle.mp3", "audio/mpeg")).toBe("name");
    const long = `Artist - ${"x".repeat(MAX_FILENAME_LENGTH)}.mp3`;
    expect(checkFilePart(long, "audio/mpeg")).toBe("name");
  });

  it("needs the .mp3 extension and an MP3 type", () => {
    expect(checkFilePart("Artist - Title.wav", "audio/mpeg")).toBe("type");
    expect(checkFilePart("Artist - Title", "audio/mpeg")).toBe("type");
    expect(checkFilePart("Artist - Title.mp3.exe", "audio/mpeg")).toBe("type");
    expect(checkFilePart("Artist - Title.mp3", "audio/wav")).toBe("type");
    expect(checkFilePart("Artist - Title.mp3", "text/plain")).toBe("type");
    expect(checkFilePart("Artist - Title.mp3", "image/png")).toBe("type");
    for (const type of ["audio/mpeg", "audio/mp3", "AUDIO/MPEG", "audio/x-mp3", "application/octet-stream"]) {
      expect(checkFilePart("Artist - Title.mp3", type)).toBeNull();
    }
  });

  it("names every file at fault, in the spec's words", () => {
    const msg = faultsMessage({ type: ["a.wav"], name: ["id - x.mp3", "bad.mp3"], duplicate: ["A - B.mp3"] });
    expect(msg).toContain("Принимаются только файлы MP3. Следующие файлы не подходят: a.wav");
    expect(msg).toContain("Следующие файлы имеют неверный формат имени: id - x.mp3, bad.mp3");
    expect(msg).toContain("Файл уже добавлен: A - B.mp3");
    expect(faultsMessage({ type: [], name: [], duplicate: ["A - B.mp3", "C - D.mp3"] })).toBe(
      "Файлы уже добавлены: A - B.mp3, C - D.mp3",
    );
  });
});

describe("a file too large", () => {
  it("quotes its name with any hidden character written out, so the message cannot be turned around", () => {
    expect(fileTooLargeMessage("a - b\u202e3pm.mp3", 50 * 1024 * 1024)).toBe(
      "Файл «a - b<U+202E>3pm.mp3» слишком большой. Максимальный размер: 50 МБ",
    );
  });
});

describe("directions", () => {
  it.each(DIRECTION_PAIRS)("%s with %s follows the conflict table", (a, b) => {
    const selected: Direction[] = [];
    expect(addDirections(selected, a)).toBeNull();
    const error = addDirections(selected, b);
    if (specConflict(a, b)) {
      expect(error).toMatch(/^Это направление нельзя выбрать вместе с уже выбранными направлениями: «.+» и «.+»\.$/);
    } else {
      expect(error).toBeNull();
      expect(selected).toEqual([a, b]);
    }
  });

  it("takes comma-joined values, ignores repeats and refuses unknown codes", () => {
    const selected: Direction[] = [];
    expect(addDirections(selected, "label_koster, podcast_koster")).toBeNull();
    expect(addDirections(selected, "label_koster")).toBeNull();
    expect(selected).toEqual(["label_koster", "podcast_koster"]);
    expect(addDirections(selected, "label_nope")).toBe("Неизвестное направление: label_nope");
  });
});
