import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** Error lines of the user's last batch (GET /api/errors). */
export const batchErrorsQuery = queryOptions({
  queryKey: ["batch-errors"],
  queryFn: async () => {
    const body = await api<{ errors?: unknown }>("/errors");
    return Array.isArray(body.errors) ? body.errors.map(errorText).filter(Boolean) : [];
  },
  retry: false,
  staleTime: 0,
});

/** The success text of the user's last batch (GET /api/success); empty when there is none. */
export const batchSuccessQuery = queryOptions({
  queryKey: ["batch-success"],
  queryFn: async () => {
    const body = await api<{ success?: unknown }>("/success");
    return typeof body.success === "string" ? body.success : "";
  },
  retry: false,
  staleTime: 0,
});

function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  if (e && typeof e === "object") {
    const o = e as { filename?: unknown; error?: unknown };
    if (typeof o.error === "string") return typeof o.filename === "string" ? `${o.filename}: ${o.error}` : o.error;
  }
  return "";
}
