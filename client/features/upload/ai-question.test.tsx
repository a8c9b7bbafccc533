// @vitest-environment happy-dom
/**
 * The AI question of the upload form (issue 25, decision 0246): a required radio group asked once
 * per batch; «Да» shows the site's rule and needs its confirmation before the batch can go; the
 * answer is sent as `ai_use`.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AI_RULE_TEXT, AI_USE_QUESTION, AI_USE_TEXTS } from "../../../domain/ai-use.ts";
import { aiAnswerReady, AiQuestion, useAiAnswer } from "./ai-question.tsx";
import { UploadForm } from "./upload-form.tsx";

afterEach(cleanup);

/** The question wired to its own state, as the form wires it. */
function Harness({ prompt = false }: { prompt?: boolean }) {
  const ai = useAiAnswer();
  return (
    <>
      <AiQuestion answer={ai.answer} onChoose={ai.choose} onConfirm={ai.confirm} prompt={prompt} />
      <output data-testid="ready">{String(ai.ready)}</output>
    </>
  );
}

const radio = (name: string) => screen.getByRole("radio", { name }) as HTMLInputElement;
const ready = () => screen.getByTestId("ready").textContent;

describe("AiQuestion", () => {
  it("is a required radio group named by the question, with Нет / Частично / Да", () => {
    render(<Harness />);
    const group = screen.getByRole("radiogroup", { name: new RegExp(AI_USE_QUESTION.replace("?", "\\?")) });
    expect(group.getAttribute("aria-required")).toBe("true");
    const radios = screen.getAllByRole("radio") as HTMLInputElement[];
    expect(radios.map((r) => [r.value, r.required, r.checked])).toEqual([
      ["no", true, false],
      ["partly", true, false],
      ["yes", true, false],
    ]);
    expect(ready()).toBe("false");
  });

  it("says the answer is missing when the rest of the form is ready", () => {
    render(<Harness prompt />);
    const hint = screen.getByText(AI_USE_TEXTS.required);
    expect(screen.getByRole("radiogroup").getAttribute("aria-describedby")).toBe(hint.id);
    fireEvent.click(radio("Нет"));
    expect(screen.queryByText(AI_USE_TEXTS.required)).toBeNull();
  });

  it("«Нет» and «Частично» are ready at once and show no rule", () => {
    render(<Harness />);
    fireEvent.click(radio("Частично"));
    expect(radio("Частично").checked).toBe(true);
    expect(ready()).toBe("true");
    expect(screen.queryByText(AI_RULE_TEXT)).toBeNull();
    fireEvent.click(radio("Нет"));
    expect(ready()).toBe("true");
  });

  it("«Да» shows the site's rule and needs the confirmation", () => {
    render(<Harness />);
    fireEvent.click(radio("Да"));
    expect(ready()).toBe("false");
    expect(screen.getByRole("note").textContent).toContain(AI_RULE_TEXT);
    const confirm = screen.getByRole("checkbox", { name: AI_USE_TEXTS.confirm }) as HTMLInputElement;
    expect(confirm.required).toBe(true);
    expect(screen.getByText(AI_USE_TEXTS.confirmRequired)).toBeTruthy();
    fireEvent.click(confirm);
    expect(ready()).toBe("true");
    // Leaving «Да» and coming back asks for the confirmation again.
    fireEvent.click(radio("Частично"));
    expect(screen.queryByRole("checkbox", { name: AI_USE_TEXTS.confirm })).toBeNull();
    fireEvent.click(radio("Да"));
    expect((screen.getByRole("checkbox", { name: AI_USE_TEXTS.confirm }) as HTMLInputElement).checked).toBe(false);
    expect(ready()).toBe("false");
  });

  it("aiAnswerReady: answered, and «Да» confirmed", () => {
    expect(aiAnswerReady({ value: null, confirmed: true })).toBe(false);
    expect(aiAnswerReady({ value: "no", confirmed: false })).toBe(true);
    expect(aiAnswerReady({ value: "yes", confirmed: false })).toBe(false);
    expect(aiAnswerReady({ value: "yes", confirmed: true })).toBe(true);
  });
});

describe("the upload form with the question", () => {
  function ready(files: string[]) {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    const input = screen.getByTestId("file-input") as HTMLInputElement;
    Object.defineProperty(input, "files", {
      value: files.map((n) => new File([new Uint8Array(10)], n, { type: "audio/mpeg" })),
      configurable: true,
    });
    fireEvent.change(input);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
  }
  const send = () => screen.getByRole("button", { name: /Загрузить/ }) as HTMLButtonElement;

  it("keeps the button disabled until answered, and «Да» until confirmed", () => {
    ready(["A - 1.mp3"]);
    expect(send().disabled).toBe(true);
    fireEvent.click(radio("Да"));
    expect(send().disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: AI_USE_TEXTS.confirm }));
    expect(send().disabled).toBe(false);
    fireEvent.click(screen.getByRole("checkbox", { name: AI_USE_TEXTS.confirm }));
    expect(send().disabled).toBe(true);
  });
});
