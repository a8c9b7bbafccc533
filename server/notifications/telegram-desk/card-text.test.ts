import { describe, expect, it } from "vitest";
import { decodeCallback } from "./callback-data.ts";
import { CAPTION_LIMIT, type CardFacts, cardKeyboard, cardText, cardTime } from "./card-text.ts";

const facts: CardFacts = {
  trackId: 42,
  filename: "DJ <Script> & Co - Night <b>Run</b>.mp3",
  directions: "label_koster,podcast_koster",
  direction: "podcast_koster",
  bpm: 174,
  key: "F minor",
  camelot: "4A",
  loudnessLufs: -8.25,
  warnings: ["clipping"],
  waitingDays: 3,
  status: "new",
  decidedBy: null,
  decidedAt: null,
  tally: { up: 2, maybe: 0, down: 1 },
};

describe("a staff card's text", () => {
  it("shows a key under the sure confidence as uncertain, as the desk does (decision 0411)", () => {
    expect(cardText({ ...facts, keyConfidence: 0.6 }, "https://label.example")).toContain("174 BPM · Fm / Ab? (4A?)");
    expect(cardText({ ...facts, keyConfidence: 0.9 }, "https://label.example")).toContain("174 BPM · F minor (4A)");
  });

  it("shows the track's facts with everything from a person escaped, and the panel link", () => {
    const text = cardText(facts, "https://label.example");
    expect(text).toContain("<b>DJ &lt;Script&gt; &amp; Co</b> — Night &lt;b&gt;Run&lt;/b&gt;");
    expect(text).toContain("Направления: Лейбл Костёр, <b>Подкаст Костёр</b>");
    expect(text).toContain("174 BPM · F minor (4A) · −8,3 LUFS");
    expect(text).toContain("⚠️ Клиппинг");
    expect(text).toContain("Ждёт ответа: 3 дня");
    expect(text).toContain('<a href="https://label.example/moderator/tracks?track=42">Открыть в панели</a>');
    expect(text).not.toContain("Голоса");
  });

  it("shows the outcome, who and when once decided, with the tallies", () => {
    const text = cardText(
      {
        ...facts,
        status: "declined",
        decidedBy: "Мира <Модер>",
        decidedAt: new Date("2026-11-25T18:40:00Z"),
        waitingDays: null,
      },
      "https://label.example",
    );
    expect(text).toContain("❌ <b>Отклонён</b>: Мира &lt;Модер&gt;, 25.11.2026 21:40 МСК");
    expect(text).toContain("Голоса: 👍 2 · 🤔 0 · 👎 1");
    expect(text).not.toContain("Ждёт ответа");
  });

  it("stays within a caption's 1,024 characters whatever the name", () => {
    const text = cardText({ ...facts, filename: `${"<".repeat(2000)} - ${"&".repeat(2000)}.mp3` }, "https://x");
    expect(text.length).toBeLessThanOrEqual(CAPTION_LIMIT);
  });

  it("counts days in Russian", () => {
    for (
      const [n, word] of [[0, "дней"], [1, "день"], [2, "дня"], [5, "дней"], [11, "дней"], [21, "день"], [
        22,
        "дня",
      ]] as const
    ) {
      expect(cardText({ ...facts, waitingDays: n }, "https://x")).toContain(`Ждёт ответа: ${n} ${word}`);
    }
  });

  it("formats a moment in Moscow time", () => {
    expect(cardTime(new Date("2026-01-02T00:05:00Z"))).toBe("02.01.2026 03:05 МСК");
  });
});

describe("a staff card's buttons", () => {
  const secret = "s".repeat(43);

  it("decide, vote with tallies, and carry signed data naming the card", () => {
    const k = cardKeyboard(secret, 7, facts)!;
    expect(k.inline_keyboard.map((r) => r.map((b) => b.text))).toEqual([
      ["Принять", "В шорт-лист", "Отклонить"],
      ["👍 2", "🤔 0", "👎 1"],
    ]);
    expect(k.inline_keyboard.flat().map((b) => decodeCallback(secret, b.callback_data)?.action)).toEqual([
      "a",
      "s",
      "x",
      "v1",
      "v0",
      "v-1",
    ]);
  });

  it("add the decline templates as a second row after «Отклонить»", () => {
    const k = cardKeyboard(secret, 7, facts, [{ id: 3, title: "Не формат" }, { id: 9, title: "Сведение" }])!;
    expect(k.inline_keyboard[1].map((b) => [b.text, decodeCallback(secret, b.callback_data)?.action])).toEqual([
      ["Не формат", "t3"],
      ["Сведение", "t9"],
    ]);
  });

  it("are gone once accepted or declined; a shortlisted pair keeps Принять and Отклонить", () => {
    expect(cardKeyboard(secret, 7, { ...facts, status: "accepted" })).toBeNull();
    expect(cardKeyboard(secret, 7, { ...facts, status: "declined" })).toBeNull();
    expect(cardKeyboard(secret, 7, { ...facts, status: "shortlisted" })!.inline_keyboard[0].map((b) => b.text))
      .toEqual(["Принять", "Отклонить"]);
  });
});
