// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pageWindow, Pagination, parsePageInput } from "./pagination.tsx";

afterEach(cleanup);

describe("pageWindow", () => {
  it("shows up to 5 pages centred on the current one and shifted at both ends", () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 10)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(7, 10)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
  });
  it("shows every page when there are 5 or fewer", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});

describe("parsePageInput", () => {
  it("accepts whole numbers in 1..total only", () => {
    expect(parsePageInput("3", 5)).toBe(3);
    expect(parsePageInput(" 5 ", 5)).toBe(5);
    expect(parsePageInput("0", 5)).toBeNull();
    expect(parsePageInput("6", 5)).toBeNull();
    expect(parsePageInput("-1", 5)).toBeNull();
    expect(parsePageInput("2.5", 5)).toBeNull();
    expect(parsePageInput("", 5)).toBeNull();
    expect(parsePageInput("abc", 5)).toBeNull();
  });
});

function Harness(
  { pages, onChange, onSize }: { pages: number; onChange?: (p: number) => void; onSize?: (n: number) => void },
) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  return (
    <Pagination
      page={page}
      pages={pages}
      onPageChange={(p) => {
        onChange?.(p);
        setPage(p);
      }}
      pageSize={size}
      onPageSizeChange={(n) => {
        onSize?.(n);
        setSize(n);
      }}
      counts={{ shown: 10, filtered: 120, total: 300 }}
    />
  );
}

const pageButtons = () => screen.getAllByRole("button", { name: /^Страница \d+$/ }).map((b) => Number(b.textContent));
const input = () => screen.getByLabelText("Перейти к странице") as HTMLInputElement;

describe("Pagination", () => {
  it("shows page X of Y, the counts, the window, and disables previous on the first page", () => {
    render(<Harness pages={12} />);
    expect(screen.getByText("Страница 1 из 12")).toBeTruthy();
    expect(screen.getByText("Показано 10 из 120 (всего 300)")).toBeTruthy();
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);
    expect((screen.getByRole("button", { name: "Назад" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole("button", { name: "Страница 1" }).getAttribute("aria-current")).toBe("page");
  });

  it("moves the window with next and the numbered buttons; next is disabled on the last page", () => {
    render(<Harness pages={12} />);
    fireEvent.click(screen.getByRole("button", { name: "Страница 5" }));
    expect(pageButtons()).toEqual([3, 4, 5, 6, 7]);
    fireEvent.click(screen.getByRole("button", { name: "Вперёд" }));
    expect(screen.getByText("Страница 6 из 12")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Страница 8" }));
    fireEvent.click(screen.getByRole("button", { name: "Страница 10" }));
    fireEvent.click(screen.getByRole("button", { name: "Страница 12" }));
    expect(pageButtons()).toEqual([8, 9, 10, 11, 12]);
    expect((screen.getByRole("button", { name: "Вперёд" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("applies a typed page on Enter and on blur, not while typing", () => {
    const onChange = vi.fn();
    render(<Harness pages={12} onChange={onChange} />);
    fireEvent.change(input(), { target: { value: "9" } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(input(), { key: "Enter" });
    expect(onChange).toHaveBeenLastCalledWith(9);
    expect(screen.getByText("Страница 9 из 12")).toBeTruthy();

    fireEvent.change(input(), { target: { value: "2" } });
    fireEvent.blur(input());
    expect(onChange).toHaveBeenLastCalledWith(2);
    expect(screen.getByText("Страница 2 из 12")).toBeTruthy();
  });

  it("ignores a typed page outside 1..total and shows the current page again", () => {
    const onChange = vi.fn();
    render(<Harness pages={12} onChange={onChange} />);
    for (const bad of ["0", "13", "-4", "abc", ""]) {
      fireEvent.change(input(), { target: { value: bad } });
      fireEvent.keyDown(input(), { key: "Enter" });
      expect(input().value).toBe("1");
      fireEvent.change(input(), { target: { value: bad } });
      fireEvent.blur(input());
      expect(input().value).toBe("1");
    }
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText("Страница 1 из 12")).toBeTruthy();
  });

  it("offers page sizes 10, 25, 50 and 100", () => {
    const onSize = vi.fn();
    render(<Harness pages={3} onSize={onSize} />);
    const select = screen.getByLabelText("На странице") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["10", "25", "50", "100"]);
    expect(select.value).toBe("10");
    fireEvent.change(select, { target: { value: "50" } });
    expect(onSize).toHaveBeenCalledWith(50);
  });
});
