import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, read } from "../../lib/api.ts";

/** A FAQ entry; `answer` is HTML the server sanitised when it was saved. */
export type FaqEntry = InferResponseType<typeof client.faq.$get>["faqs"][number];

export const faqQuery = queryOptions({
  queryKey: ["faq"],
  queryFn: async () => {
    const body = await read(client.faq.$get());
    return [...(body.faqs ?? [])].sort((a, b) => a.order - b.order || a.id - b.id);
  },
  staleTime: 5 * 60_000,
  retry: false,
});
