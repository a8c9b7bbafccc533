import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { callOptions, client, read } from "./api.ts";

/** GET /api/config: maintenance flag, configured sign-in providers, upload limits. */
export type PublicConfig = InferResponseType<typeof client.config.$get>;

export const configQuery = queryOptions({
  queryKey: ["config"],
  queryFn: () => read(client.config.$get(undefined, callOptions({ noRetry: true }))),
  staleTime: 5 * 60_000,
});
