import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** A FAQ entry; `answer` is HTML the server sanitised when it was saved. */
export interface FaqEntry {
  id: number;
  question: string;
  answer: string;
  order: number;
}

export const faqQuery = queryOptions({
  queryKey: ["faq"],
  queryFn: async () => {
    const body = await api<{ faqs?: FaqEntry[] }>("/faq");
    return [...(body.faqs ?? [])].sort((a, b) => a.order - b.order || a.id - b.id);
  },
  staleTime: 5 * 60_000,
  retry: false,
});
