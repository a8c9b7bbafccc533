import { queryOptions } from "@tanstack/react-query";
import { client, read } from "../../lib/api.ts";

/** Error lines of the user's last batch (GET /api/errors). */
export const batchErrorsQuery = queryOptions({
  queryKey: ["batch-errors"],
  queryFn: async () => {
    const body = await read(client.errors.$get());
    // The lines come from the status store, which may still hold entries written in an older shape.
    const lines: unknown[] = Array.isArray(body.errors) ? body.errors : [];
    return lines.map(batchErrorLine).filter(Boolean);
  },
  retry: false,
  staleTime: 0,
});

/** The success text of the user's last batch (GET /api/success); empty when there is none. */
export const batchSuccessQuery = queryOptions({
  queryKey: ["batch-success"],
  queryFn: async () => {
    const body = await read(client.success.$get());
    return typeof body.success === "string" ? body.success : "";
  },
  retry: false,
  staleTime: 0,
});

function batchErrorLine(e: unknown): string {
  if (typeof e === "string") return e;
  if (e && typeof e === "object") {
    const o = e as { filename?: unknown; error?: unknown };
    if (typeof o.error === "string") return typeof o.filename === "string" ? `${o.filename}: ${o.error}` : o.error;
  }
  return "";
}
