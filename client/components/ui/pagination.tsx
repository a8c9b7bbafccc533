import { useEffect, useId, useState } from "react";
import "./staff.css";

/** The numbered window: up to `size` pages around the current one, shifted at both ends. */
export function pageWindow(page: number, pages: number, size = 5): number[] {
  if (pages < 1) return [];
  const current = Math.min(Math.max(1, page), pages);
  const start = Math.max(1, Math.min(current - Math.floor(size / 2), pages - size + 1));
  const end = Math.min(pages, start + size - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** A typed page number, or null when it is not a whole number in 1..pages. */
export function parsePageInput(value: string, pages: number): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= pages ? n : null;
}

export interface PaginationTexts {
  pageOf: (page: number, pages: number) => string;
  counts: (shown: number, filtered: number, total: number) => string;
  previous: string;
  next: string;
  perPage: string;
  goTo: string;
  nav: string;
  pageLabel: (n: number) => string;
}

export const PAGINATION_TEXTS_RU: PaginationTexts = {
  pageOf: (p, n) => `Страница ${p} из ${n}`,
  counts: (s, f, t) => `Показано ${s} из ${f} (всего ${t})`,
  previous: "Назад",
  next: "Вперёд",
  perPage: "На странице",
  goTo: "Перейти к странице",
  nav: "Страницы",
  pageLabel: (n) => `Страница ${n}`,
};

export const PAGINATION_TEXTS_EN: PaginationTexts = {
  pageOf: (p, n) => `Page ${p} of ${n}`,
  counts: (s, f, t) => `Showing ${s} of ${f} (total ${t})`,
  previous: "Previous",
  next: "Next",
  perPage: "Per page",
  goTo: "Go to page",
  nav: "Pages",
  pageLabel: (n) => `Page ${n}`,
};

export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;

interface PaginationProps {
  page: number;
  pages: number;
  onPageChange: (page: number) => void;
  /** Page-size select; hidden without `onPageSizeChange`. */
  pageSize?: number;
  pageSizeOptions?: readonly number[];
  onPageSizeChange?: (size: number) => void;
  /** "shown / filtered / total" line; hidden when absent. */
  counts?: { shown: number; filtered: number; total: number };
  /** The direct page-number input; on by default. */
  pageInput?: boolean;
  windowSize?: number;
  texts?: PaginationTexts;
}

/**
 * Page X of Y, counts, page size, previous/next, a numbered window of up to 5 pages and a page-number
 * input applied on Enter or blur; a number outside 1..pages is ignored and the input shows the page again.
 */
export function Pagination({
  page,
  pages,
  onPageChange,
  pageSize,
  pageSizeOptions = PAGE_SIZE_OPTIONS,
  onPageSizeChange,
  counts,
  pageInput = true,
  windowSize = 5,
  texts = PAGINATION_TEXTS_RU,
}: PaginationProps) {
  const total = Math.max(1, pages);
  const [typed, setTyped] = useState(String(page));
  const sizeId = useId();
  const inputId = useId();
  useEffect(() => setTyped(String(page)), [page]);

  const go = (n: number) => {
    if (n !== page && n >= 1 && n <= total) onPageChange(n);
  };
  const applyTyped = () => {
    const n = parsePageInput(typed, total);
    if (n === null) setTyped(String(page));
    else go(n);
  };

  return (
    <div className="st-pagination">
      <div className="st-row">
        <span>{texts.pageOf(Math.min(page, total), total)}</span>
        {counts && <span className="st-muted">{texts.counts(counts.shown, counts.filtered, counts.total)}</span>}
      </div>
      <div className="st-row">
        {onPageSizeChange && (
          <label className="st-inline-field" htmlFor={sizeId}>
            {texts.perPage}
            <select
              id={sizeId}
              className="st-select"
              value={pageSize}
              onChange={(e) => onPageSizeChange(Number(e.target.value))}
            >
              {pageSizeOptions.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </label>
        )}
        <nav className="st-pages" aria-label={texts.nav}>
          <button type="button" className="st-btn st-btn-sm" disabled={page <= 1} onClick={() => go(page - 1)}>
            {texts.previous}
          </button>
          {pageWindow(page, total, windowSize).map((n) => (
            <button
              key={n}
              type="button"
              className="st-btn st-btn-sm st-page-btn"
              aria-current={n === page ? "page" : undefined}
              aria-label={texts.pageLabel(n)}
              onClick={() => go(n)}
            >
              {n}
            </button>
          ))}
          <button type="button" className="st-btn st-btn-sm" disabled={page >= total} onClick={() => go(page + 1)}>
            {texts.next}
          </button>
        </nav>
        {pageInput && (
          <label className="st-inline-field" htmlFor={inputId}>
            {texts.goTo}
            <input
              id={inputId}
              className="st-input st-page-input"
              type="number"
              inputMode="numeric"
              min={1}
              max={total}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onBlur={applyTyped}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  applyTyped();
                }
              }}
            />
          </label>
        )}
      </div>
    </div>
  );
}
