// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FAQ_EDITOR_TEXTS_EN, FaqFields, FaqPreview } from "./faq-editor.tsx";
import {
  answerToText,
  faqFormValid,
  type FaqFormValue,
  formatAnswer,
  nextFaqOrder,
  sanitizeAnswerHtml,
  truncateAnswer,
} from "./faq-format.ts";
import { sanitizeAnswer } from "../../../server/faq/sanitize.ts";

afterEach(cleanup);

describe("formatAnswer", () => {
  it("makes a paragraph of each block separated by a blank line and a <br> of each single newline", () => {
    expect(formatAnswer("One\ntwo\n\nThree")).toBe("<p>One<br>two</p><p>Three</p>");
    expect(formatAnswer("A\r\n\r\nB")).toBe("<p>A</p><p>B</p>");
    expect(formatAnswer("A\n   \n\n\nB")).toBe("<p>A</p><p>B</p>");
    expect(formatAnswer("  \n\n ")).toBe("");
  });
  it("keeps basic HTML and does not wrap a list in a paragraph", () => {
    expect(formatAnswer("See <strong>this</strong>\n\n<ul><li>x</li></ul>")).toBe(
      "<p>See <strong>this</strong></p><ul><li>x</li></ul>",
    );
  });
  it("is undone by answerToText, so an entry can be edited again as text", () => {
    for (const text of ["One\ntwo\n\nThree", "Single line", "A <em>b</em>\n\nC\nD\nE"]) {
      expect(answerToText(formatAnswer(text))).toBe(text);
    }
    expect(answerToText("Plain text without tags")).toBe("Plain text without tags");
  });
  it("shows the characters the server stored as entities, and saving again stores the same answer", () => {
    // What the server's sanitiser stores for "drum&bass", "R&B" and the literal texts "<b>" and "&lt;".
    const stored = '<p>Только drum&amp;bass и "ликвид"</p><p>R&amp;B, &lt;b&gt; и &amp;lt; — текст</p>';
    const text = answerToText(stored);
    expect(text).toBe('Только drum&bass и "ликвид"\n\nR&B, &lt;b&gt; и &amp;lt; — текст');
    // Saving it again (formatAnswer, then the server's sanitiser) stores the same HTML.
    expect(sanitizeAnswer(formatAnswer(text))).toBe(stored);
    // Attribute values are not touched.
    expect(answerToText('<p><a href="https://x.test/?a=1&amp;b=2">x &amp; y</a></p>'))
      .toBe('<a href="https://x.test/?a=1&amp;b=2">x & y</a>');
  });
});

describe("truncateAnswer", () => {
  it("cuts the text of the answer at 150 characters and adds an ellipsis", () => {
    const long = "x".repeat(149) + "yz";
    expect(truncateAnswer(`<p>${long}</p>`)).toBe("x".repeat(149) + "y...");
    expect(truncateAnswer("<p>" + "a".repeat(150) + "</p>")).toBe("a".repeat(150));
    expect(truncateAnswer("<p>Tom &amp; Jerry</p><p>second</p>")).toBe("Tom & Jerry second");
  });
});

describe("sanitizeAnswerHtml", () => {
  it("keeps the allow-list and drops script, handlers and unsafe links", () => {
    const out = sanitizeAnswerHtml(
      '<p onclick="x()">Hi <b>there</b><script>alert(1)</script><img src=x onerror="alert(2)"></p>' +
        '<a href="javascript:alert(3)">bad</a> <a href="https://neuropunk.ru">good</a>',
    );
    expect(out).not.toMatch(/script|onerror|onclick|javascript:|<img/i);
    expect(out).toContain("<p>Hi <b>there</b></p>");
    expect(out).toContain('<a href="https://neuropunk.ru" target="_blank" rel="noopener noreferrer">good</a>');
    expect(out).toContain("<a>bad</a>");
  });
});

describe("FAQ form rules", () => {
  it("needs an order of at least 1 and a question and answer that are not blank", () => {
    const ok: FaqFormValue = { order: "1", question: "Q", answer: "A" };
    expect(faqFormValid(ok)).toBe(true);
    expect(faqFormValid({ ...ok, order: "0" })).toBe(false);
    expect(faqFormValid({ ...ok, order: "-2" })).toBe(false);
    expect(faqFormValid({ ...ok, order: "" })).toBe(false);
    expect(faqFormValid({ ...ok, order: "1.5" })).toBe(false);
    expect(faqFormValid({ ...ok, question: "   " })).toBe(false);
    expect(faqFormValid({ ...ok, answer: "\n\t " })).toBe(false);
  });
  it("puts a new entry after the last one, or first", () => {
    expect(nextFaqOrder([])).toBe(1);
    expect(nextFaqOrder([{ order: 3 }, { order: 7 }, { order: 2 }])).toBe(8);
  });
});

function Editor({ mode }: { mode: "paragraphs" | "html" }) {
  const [value, setValue] = useState<FaqFormValue>({ order: "1", question: "", answer: "" });
  return (
    <>
      <FaqFields value={value} onChange={setValue} />
      <FaqPreview question={value.question} answer={value.answer} mode={mode} />
    </>
  );
}

describe("FaqPreview", () => {
  it("follows the typing live: blank line = new paragraph, single newline = line break", () => {
    render(<Editor mode="paragraphs" />);
    expect(screen.getByText("Здесь появится вопрос")).toBeTruthy();
    expect(screen.getByText("Здесь появится ответ")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Вопрос"), { target: { value: "Как отправить трек?" } });
    fireEvent.change(screen.getByLabelText("Ответ"), { target: { value: "Шаг один\nшаг два\n\nГотово" } });
    expect(screen.getByRole("heading", { name: "Как отправить трек?" })).toBeTruthy();
    const body = screen.getByTestId("faq-preview-body");
    const paragraphs = body.querySelectorAll("p");
    expect(paragraphs.length).toBe(2);
    expect(paragraphs[0].innerHTML).toBe("Шаг один<br>шаг два");
    expect(paragraphs[1].textContent).toBe("Готово");
  });

  it("renders the answer as HTML in html mode, with the English placeholders", () => {
    render(<FaqPreview question="" answer="" mode="html" texts={FAQ_EDITOR_TEXTS_EN} />);
    expect(screen.getByText("Question will appear here")).toBeTruthy();
    expect(screen.getByText("Answer will appear here")).toBeTruthy();
    cleanup();
    render(<FaqPreview question="Q" answer="<ul><li>one</li></ul><script>x</script>" mode="html" />);
    const body = screen.getByTestId("faq-preview-body");
    expect(body.innerHTML).toBe("<ul><li>one</li></ul>");
  });

  it("marks an order below 1 as invalid, its help line read as the description turning into the error", () => {
    render(<Editor mode="paragraphs" />);
    const order = screen.getByLabelText("Порядок");
    const description = () => document.getElementById(order.getAttribute("aria-describedby") ?? "")?.textContent;
    expect(description()).toBe("Определяет порядок отображения");
    order.focus();
    fireEvent.change(order, { target: { value: "0" } });
    expect(screen.getByText("Порядок должен быть больше 0")).toBeTruthy();
    expect(screen.getByLabelText("Порядок")).toBe(order);
    expect(document.activeElement).toBe(order);
    expect(order.getAttribute("aria-invalid")).toBe("true");
    expect(description()).toBe("Порядок должен быть больше 0");
  });
});
