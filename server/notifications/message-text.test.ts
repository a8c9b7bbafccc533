import { describe, expect, it } from "vitest";
import { DIRECTION_LABELS } from "../../domain/directions.ts";
import {
  COMMENTS_MENTION,
  decisionMessageText,
  escapeWithin,
  TELEGRAM_TEXT_LIMIT,
  trackMessageText,
} from "./message-text.ts";

const base = {
  trackName: "Noisia - Stigma.mp3",
  direction: "label_koster" as const,
  outcome: "accepted" as const,
  historyUrl: "https://neuropunk.example/profile",
};

describe("decisionMessageText", () => {
  it("names the track, the direction by its artist-facing label, the outcome, the message and the history link", () => {
    const text = decisionMessageText({ ...base, message: "Выйдет в мартовском релизе." });
    expect(text).toContain("<b>Noisia - Stigma</b>");
    expect(text).not.toContain(".mp3");
    expect(text).toContain(`Направление: ${DIRECTION_LABELS.label_koster}`);
    expect(text).toContain("Статус: <b>Принят</b>");
    expect(text).toContain("Сообщение:\nВыйдет в мартовском релизе.");
    expect(text).toContain("История ваших треков: https://neuropunk.example/profile");
  });

  it("mentions comments shared with the artist just before the history link, within the limit (issue 24)", () => {
    const text = decisionMessageText({ ...base, sharedComments: 2, message: "я".repeat(5000) });
    expect(text).toContain(`${COMMENTS_MENTION}\nИстория ваших треков: https://neuropunk.example/profile`);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(decisionMessageText({ ...base, sharedComments: 0 })).not.toContain(COMMENTS_MENTION);
    expect(decisionMessageText(base)).not.toContain(COMMENTS_MENTION);
  });

  it("says declined, and leaves the message part out when there is none", () => {
    const text = decisionMessageText({ ...base, outcome: "declined", direction: "radio_k_profit", message: "  " });
    expect(text).toContain("Статус: <b>Отклонён</b>");
    expect(text).toContain(DIRECTION_LABELS.radio_k_profit);
    expect(text).not.toContain("Сообщение");
  });

  it("tells a message on a pair still under review with its state", () => {
    const text = decisionMessageText({ ...base, outcome: "in_review", message: "Послушаем на неделе" });
    expect(text).toContain("Статус: <b>На рассмотрении</b>");
    expect(text).toContain("Послушаем на неделе");
    expect(decisionMessageText({ ...base, outcome: "pending" })).toContain("Статус: <b>На рассмотрении</b>");
    expect(decisionMessageText({ ...base, outcome: "listened" })).toContain("Статус: <b>Прослушан</b>");
  });

  it("escapes what people wrote, so it reaches the artist as written and not as markup", () => {
    const text = decisionMessageText({
      ...base,
      trackName: "<b>A&B</b> - T",
      message: `<a href="https://evil.example">жми</a> & </b>`,
    });
    expect(text).toContain("<b>&lt;b&gt;A&amp;B&lt;/b&gt; - T</b>");
    expect(text).toContain("&lt;a href=&quot;https://evil.example&quot;&gt;жми&lt;/a&gt; &amp; &lt;/b&gt;");
    expect(text).not.toContain("<a ");
  });

  it("stays within Telegram's 4,096 characters, cutting the message and keeping the link", () => {
    const text = decisionMessageText({ ...base, message: "&".repeat(10_000) });
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).toContain("&amp;…\n\nИстория ваших треков: https://neuropunk.example/profile");
    expect(text).not.toMatch(/&(a|am|amp)?…/);
  });
});

describe("escapeWithin", () => {
  it("never splits an entity or a surrogate pair", () => {
    expect(escapeWithin("a&b", 6)).toBe("a…");
    expect(escapeWithin("😀😀😀", 5)).toBe("😀😀…");
    expect(escapeWithin("short", 10)).toBe("short");
  });
});

describe("trackMessageText (issue 31, decision 0301)", () => {
  const one = (over: Partial<Parameters<typeof decisionMessageText>[0]>) => decisionMessageText({ ...base, ...over });

  it("names the track and the history link once, each direction with its outcome and message", () => {
    const text = trackMessageText([
      one({ direction: "label_koster", outcome: "declined", message: "Нет\n\nсовсем" }),
      one({ direction: "show_neurogon", outcome: "accepted", sharedComments: 1 }),
    ]);
    expect(text).toBe(
      "Трек <b>Noisia - Stigma</b>\n\n" +
        `Направление: ${DIRECTION_LABELS.label_koster}\nСтатус: <b>Отклонён</b>\n\nСообщение:\nНет\n\nсовсем\n\n` +
        `Направление: ${DIRECTION_LABELS.show_neurogon}\nСтатус: <b>Принят</b>\n\n` +
        `${COMMENTS_MENTION}\nИстория ваших треков: https://neuropunk.example/profile`,
    );
    // One text is left as it is.
    expect(trackMessageText([one({})])).toBe(one({}));
  });

  it("stays within the limit, cutting the longest parts and never a surrogate pair or an entity", () => {
    const long = one({ message: "🎧&".repeat(1500) });
    const short = one({ direction: "show_neurogon", outcome: "declined", message: "Коротко" });
    const text = trackMessageText([long, long, short]);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).toContain("Сообщение:\nКоротко");
    for (const piece of text.split("…").slice(0, -1)) expect(piece).toMatch(/(🎧|&amp;)$/);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
