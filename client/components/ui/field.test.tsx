// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { createRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Field } from "./field.tsx";

afterEach(cleanup);

const described = (el: HTMLElement) =>
  (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe("Field", () => {
  it("without a hint or an error: the control sits in its label, named by the label's text alone", () => {
    const { container } = render(
      <Field label="Номер" className="ep-grow">
        <input className="st-input" name="number" />
      </Field>,
    );
    const input = screen.getByLabelText("Номер") as HTMLInputElement;
    expect(input.name).toBe("number");
    const label = container.firstElementChild as HTMLLabelElement;
    expect(label.tagName).toBe("LABEL");
    expect(label.className).toBe("st-field ep-grow");
    expect(label.htmlFor).toBe(input.id);
    expect(label.querySelector("span")?.textContent).toBe("Номер");
    expect(input.hasAttribute("aria-describedby")).toBe(false);
    expect(input.hasAttribute("aria-invalid")).toBe(false);
  });

  it("inline: the label beside the control (st-inline-field)", () => {
    const { container } = render(
      <Field inline label="From">
        <input type="date" className="st-input" />
      </Field>,
    );
    expect(container.firstElementChild?.className).toBe("st-inline-field");
    expect(screen.getByLabelText("From").getAttribute("type")).toBe("date");
  });

  it("a hint is read as the control's description and is not part of its name", () => {
    const { container } = render(
      <Field label="Пауза" hint="Артист увидит это сообщение" className="st-wide">
        <textarea className="st-textarea" />
      </Field>,
    );
    const box = screen.getByLabelText("Пауза");
    expect(box.tagName).toBe("TEXTAREA");
    expect(described(box)).toEqual(["Артист увидит это сообщение"]);
    expect(box.hasAttribute("aria-invalid")).toBe(false);
    expect(container.firstElementChild?.tagName).toBe("DIV");
    expect(container.firstElementChild?.className).toBe("st-field st-wide");
    expect(container.querySelector("label")?.textContent).toBe("Пауза");
  });

  it("an error marks the control invalid and is described after the hint and the control's own", () => {
    render(
      <Field label="Email" hint="Для входа" error="Неверный email" id="user-email">
        <input className="st-input" aria-describedby="outside" />
      </Field>,
    );
    const input = screen.getByLabelText("Email");
    expect(input.id).toBe("user-email");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe("outside user-email-hint user-email-error");
    expect(screen.getByText("Неверный email").className).toBe("st-hint st-field-error");
  });

  it("an empty error leaves the control valid and undescribed; the control's ref still reaches it", () => {
    const ref = createRef<HTMLInputElement>();
    render(
      <Field label="Город" error="">
        <input ref={ref} className="st-input" />
      </Field>,
    );
    const input = screen.getByLabelText("Город");
    expect(ref.current).toBe(input);
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.hasAttribute("aria-describedby")).toBe(false);
  });

  it("two fields get two ids", () => {
    render(
      <>
        <Field label="A">
          <input />
        </Field>
        <Field label="B">
          <input />
        </Field>
      </>,
    );
    expect(screen.getByLabelText("A").id).not.toBe(screen.getByLabelText("B").id);
  });
});
