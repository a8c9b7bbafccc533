import { queryOptions } from "@tanstack/react-query";
import { api } from "./api.ts";
import type { PublicConfig } from "./types.ts";

/** GET /api/config: maintenance flag, configured sign-in providers, upload limits. */
export const configQuery = queryOptions({
  queryKey: ["config"],
  queryFn: () => api<PublicConfig>("/config", { noRetry: true }),
  staleTime: 5 * 60_000,
});
