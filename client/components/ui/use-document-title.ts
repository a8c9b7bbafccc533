import { useEffect } from "react";

/** Staff route titles (spec 2 §2) shown in the browser tab. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} — Нейропанк`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
