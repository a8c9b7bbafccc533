import { describe, expect, it } from "vitest";
import { blockedDirections, DIRECTIONS } from "../../../domain/directions.ts";
import {
  duplicateWarning,
  formatClock,
  isMp3,
  isValidTrackName,
  sortIncoming,
  submitButton,
  toggleDirection,
} from "./upload-rules.ts";

describe("file name rule", () => {
  it.each([
    "Artist - Title.mp3",
    "Artist - Title.MP3",
    "A - B - C.mp3", // the last separator splits: artist "A - B", title "C"
    "Артист - Трек.mp3",
    "ID Crew - Title.mp3",
    "Identity - Title.mp3",
    "  Artist  -  Title .mp3",
  ])("accepts %s", (name) => expect(isValidTrackName(name)).toBe(true));

  it.each([
    "NoSeparator.mp3",
    "Artist-Title.mp3",
    "Artist -Title.mp3",
    "Artist - .mp3",
    " - Title.mp3",
    "Artist - Title.wav",
    "Artist - Title",
    "id - Title.mp3",
    "ID - Title.mp3",
    "Id - Title.mp3",
    "айди - Трек.mp3",
    "АЙДИ - Трек.mp3",
    "  id  - Title.mp3",
  ])("refuses %s", (name) => expect(isValidTrackName(name)).toBe(false));
});

describe("taking files", () => {
  const mp3 = (name: string, type = "audio/mpeg") => ({ name, type });

  it("takes only MPEG audio named .mp3", () => {
    expect(isMp3(mp3("a - b.mp3"))).toBe(true);
    expect(isMp3(mp3("a - b.MP3"))).toBe(true);
    expect(isMp3(mp3("a - b.wav", "audio/wav"))).toBe(false);
    expect(isMp3(mp3("a - b.mp3", "audio/wav"))).toBe(false);
    expect(isMp3(mp3("a - b.mp3", ""))).toBe(false);
    expect(isMp3(mp3("a - b.ogg", "audio/mpeg"))).toBe(false);
  });

  it("drops other files silently and reports names already in the list", () => {
    const { accepted, duplicates } = sortIncoming(
      [mp3("A - 1.mp3"), mp3("cover.jpg", "image/jpeg"), mp3("B - 2.mp3"), mp3("B - 2.mp3"), mp3("C - 3.mp3")],
      ["A - 1.mp3"],
    );
    expect(accepted.map((f) => f.name)).toEqual(["B - 2.mp3", "C - 3.mp3"]);
    expect(duplicates).toEqual(["A - 1.mp3", "B - 2.mp3"]);
  });

  it("words the duplicate warning in the singular and the plural", () => {
    expect(duplicateWarning([])).toBeNull();
    expect(duplicateWarning(["A - 1.mp3"])).toBe("Файл уже добавлен: A - 1.mp3");
    expect(duplicateWarning(["A - 1.mp3", "B - 2.mp3"])).toBe("Файлы уже добавлены: A - 1.mp3, B - 2.mp3");
  });
});

describe("submit button", () => {
  const base = { signedIn: true, phase: "idle" as const, fileCount: 1, invalidCount: 0, directionCount: 1 };

  it("says Загрузить трек for one file and Загрузить треки (N) for several", () => {
    expect(submitButton(base)).toEqual({ label: "Загрузить трек", disabled: false });
    expect(submitButton({ ...base, fileCount: 3 })).toEqual({ label: "Загрузить треки (3)", disabled: false });
  });

  it("is disabled without a file, without a direction or with an invalid name", () => {
    expect(submitButton({ ...base, fileCount: 0 })).toEqual({ label: "Загрузить трек", disabled: true });
    expect(submitButton({ ...base, directionCount: 0 }).disabled).toBe(true);
    expect(submitButton({ ...base, fileCount: 2, invalidCount: 1 }).disabled).toBe(true);
  });

  it("reads Загрузка... while sending and Успешно загружено! after", () => {
    expect(submitButton({ ...base, phase: "uploading" })).toEqual({ label: "Загрузка...", disabled: true });
    expect(submitButton({ ...base, phase: "success" })).toEqual({ label: "Успешно загружено!", disabled: true });
  });

  it("asks anonymous visitors to sign in, and stays clickable for them", () => {
    expect(submitButton({ ...base, signedIn: false, fileCount: 0, directionCount: 0 }))
      .toEqual({ label: "Войти для загрузки", disabled: false });
  });
});

describe("direction conflicts", () => {
  it("blocks the spec's conflicts for each choice", () => {
    expect([...blockedDirections(["label_neuropunk"])].sort()).toEqual(
      ["label_koster", "podcast_koster", "radio_k_profit", "show_neurogon"].sort(),
    );
    expect([...blockedDirections(["podcast_neuropunk"])].sort()).toEqual(
      ["label_koster", "podcast_koster", "radio_k_profit"].sort(),
    );
    expect([...blockedDirections(["label_koster"])].sort()).toEqual(["label_neuropunk", "podcast_neuropunk"]);
    expect([...blockedDirections(["podcast_koster"])].sort()).toEqual(["label_neuropunk", "podcast_neuropunk"]);
    // show_neurogon and radio_k_profit conflict only with the ones listed above.
    expect([...blockedDirections(["show_neurogon"])]).toEqual(["label_neuropunk"]);
    expect([...blockedDirections(["radio_k_profit"])].sort()).toEqual(["label_neuropunk", "podcast_neuropunk"]);
  });

  it("toggles on and off, and refuses a conflicting choice", () => {
    let selected = toggleDirection([], "label_neuropunk");
    expect(selected).toEqual(["label_neuropunk"]);
    selected = toggleDirection(selected, "podcast_neuropunk");
    expect(selected).toEqual(["label_neuropunk", "podcast_neuropunk"]);
    expect(toggleDirection(selected, "label_koster")).toEqual(selected);
    expect(toggleDirection(selected, "label_neuropunk")).toEqual(["podcast_neuropunk"]);
  });

  it("allows every direction together with the ones it does not conflict with", () => {
    const all = toggleDirection(
      toggleDirection(toggleDirection([], "label_koster"), "podcast_koster"),
      "show_neurogon",
    );
    expect(all).toEqual(["label_koster", "podcast_koster", "show_neurogon"]);
    expect(toggleDirection(all, "radio_k_profit")).toEqual(
      DIRECTIONS.filter((d) => d !== "label_neuropunk" && d !== "podcast_neuropunk"),
    );
  });
});

describe("player clock", () => {
  it("formats the player's clock", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(65.9)).toBe("1:05");
    expect(formatClock(Number.NaN)).toBe("0:00");
    expect(formatClock(Infinity)).toBe("0:00");
  });
});
