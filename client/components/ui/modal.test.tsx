// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Modal } from "./modal.tsx";

afterEach(cleanup);

/** A row's delete button opening a confirm dialog; `generation` redraws the row (a list read again). */
function Row() {
  const [open, setOpen] = useState(false);
  const [generation, setGeneration] = useState(0);
  return (
    <>
      <div key={generation}>
        <button type="button" aria-label="Удалить: A - B.mp3" onClick={() => setOpen(true)}>Удалить</button>
      </div>
      <button type="button" data-testid="redraw" onClick={() => setGeneration((g) => g + 1)}>redraw</button>
      <Modal open={open} title="Удаление трека" onClose={() => setOpen(false)}>
        <button type="button">Отмена</button>
      </Modal>
    </>
  );
}

describe("Modal", () => {
  it("gives the focus back to the control that opened it", () => {
    render(<Row />);
    const opener = screen.getByRole("button", { name: "Удалить: A - B.mp3" });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement?.textContent).toBe("Отмена");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(document.activeElement).toBe(opener);
  });

  it("gives it to the same control drawn anew when the list was read again while the dialog was open", () => {
    render(<Row />);
    const opener = screen.getByRole("button", { name: "Удалить: A - B.mp3" });
    opener.focus();
    fireEvent.click(opener);
    act(() => screen.getByTestId("redraw").click());
    const redrawn = screen.getByRole("button", { name: "Удалить: A - B.mp3", hidden: true });
    expect(redrawn).not.toBe(opener);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(document.activeElement).toBe(redrawn);
  });
});
