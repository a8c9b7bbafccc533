import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { ApiError, badRequest, notFound } from "../lib/http-error.ts";
import { type StatusStore, StatusStoreUnavailable } from "../status-store/kv.ts";
import { validate } from "../http/validate.ts";

/**
 * The status-store page (spec 2 "Cache admin page", §3 "Cache data"): GET /redis-data,
 * DELETE /redis-key/:key, POST /cleanup-redis. Only the product's own upload-status families are
 * listed or removed (sign-in state under `oauth:` is not), through the StatusStore interface only,
 * so it behaves the same on Upstash and on the embedded store. The page is in English, and so are
 * the messages here.
 */

export const CACHE_FAMILIES = ["track_ids", "track_status", "errors", "success"] as const;
export type CacheFamily = (typeof CACHE_FAMILIES)[number];

/** Entries per page of each list when the call names no page size (like the other staff lists). */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const STORE_UNREACHABLE =
  "The status store is unreachable. Track statuses are read from the database until it answers again.";

const KEY_RE = /^(track_ids|track_status|errors|success):[A-Za-z0-9_.-]{1,100}$/;

export function familyOf(key: string): CacheFamily | null {
  return KEY_RE.test(key) ? (key.slice(0, key.indexOf(":")) as CacheFamily) : null;
}

const byNaturalKey = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

async function familyKeys(kv: StatusStore, family: CacheFamily): Promise<string[]> {
  // The glob could match more than the family's well-formed keys; keep only those the page may touch.
  return (await kv.keys(`${family}:*`)).filter((k) => familyOf(k) === family).sort(byNaturalKey);
}

/** One page of a family's sorted keys with their values; a page past the end shows the last one. */
async function pageOf(kv: StatusStore, keys: string[], requested: number, size: number) {
  const pages = Math.max(1, Math.ceil(keys.length / size));
  const page = Math.min(requested, pages);
  const shown = keys.slice((page - 1) * size, page * size);
  const values = await kv.mget(shown);
  return {
    entries: shown.map((key, i) => ({ key, value: values[i] })),
    paging: { page, pages, total: keys.length },
  };
}

const cleanupSchema = z.object({
  key_type: z.enum(["track_ids", "track_status", "errors", "success", "all"], {
    message: "key_type must be one of: track_ids, track_status, errors, success, all",
  }),
});

const pageParam = (name: string) =>
  z.string().regex(/^\d{1,9}$/, `${name} must be a whole number from 1`)
    .refine((v) => Number(v) >= 1, `${name} must be a whole number from 1`)
    .optional();

const listSchema = z.object({
  page_size: z.string().regex(/^\d{1,3}$/, `page_size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .refine(
      (v) => Number(v) >= 1 && Number(v) <= MAX_PAGE_SIZE,
      `page_size must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    )
    .optional(),
  track_ids_page: pageParam("track_ids_page"),
  track_status_page: pageParam("track_status_page"),
  errors_page: pageParam("errors_page"),
});

/** A store that cannot be reached is the server's trouble, not a bug: 503 with a message the page shows. */
async function reachable<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof StatusStoreUnavailable) throw new ApiError(503, STORE_UNREACHABLE);
    throw err;
  }
}

export function createAdminRedisRoutes(ctx: AppContext) {
  const { kv } = ctx;
  return new Hono<AppEnv>()
    .get("/redis-data", validate("query", listSchema), async (c) => {
      const q = c.req.valid("query");
      const size = Number(q.page_size ?? DEFAULT_PAGE_SIZE);
      const { trackIdKeys, statusKeys, errorKeys, successKeys, ids, statuses, errors } = await reachable(async () => {
        const [trackIdKeys, statusKeys, errorKeys, successKeys] = await Promise.all(
          CACHE_FAMILIES.map((f) => familyKeys(kv, f)),
        );
        const [ids, statuses, errors] = await Promise.all([
          pageOf(kv, trackIdKeys, Number(q.track_ids_page ?? 1), size),
          pageOf(kv, statusKeys, Number(q.track_status_page ?? 1), size),
          pageOf(kv, errorKeys, Number(q.errors_page ?? 1), size),
        ]);
        return { trackIdKeys, statusKeys, errorKeys, successKeys, ids, statuses, errors };
      });
      return c.json({
        success: true,
        stats: {
          track_ids: trackIdKeys.length,
          // Spec 2 §3 names the count of track-id keys as what `stats` carries (decision 0026).
          track_ids_count: trackIdKeys.length,
          track_status: statusKeys.length,
          errors: errorKeys.length,
          success: successKeys.length,
          total: trackIdKeys.length + statusKeys.length + errorKeys.length + successKeys.length,
        },
        trackIds: ids.entries.map(({ key, value }) => ({
          key,
          values: Array.isArray(value) ? value : value === null || value === undefined ? [] : [value],
        })),
        trackStatus: statuses.entries.map(({ key, value }) => ({
          key,
          // Stored status records are objects; the page reads their status and file name.
          value: (value && typeof value === "object" && !Array.isArray(value)
            ? value
            : { status: value === null || value === undefined ? null : String(value), filename: null }) as {
              status?: string | null;
              filename?: string | null;
            },
        })),
        errorKeys: errors.entries.map(({ key, value }) => ({ key, value })),
        successCount: successKeys.length,
        paging: {
          page_size: size,
          trackIds: ids.paging,
          trackStatus: statuses.paging,
          errorKeys: errors.paging,
        },
      });
    })
    .delete("/redis-key/:key", async (c) => {
      const key = c.req.param("key");
      if (!familyOf(key)) throw badRequest("Only track_ids:, track_status:, errors: and success: keys can be removed");
      const removed = await reachable(() => kv.del([key]));
      if (removed === 0) throw notFound(`Key ${key} not found`);
      return c.json({ success: true, key, count: removed });
    })
    .post("/cleanup-redis", validate("json", cleanupSchema), async (c) => {
      const type = c.req.valid("json").key_type;
      const families = type === "all" ? [...CACHE_FAMILIES] : [type as CacheFamily];
      const count = await reachable(async () => {
        const keys = (await Promise.all(families.map((f) => familyKeys(kv, f)))).flat();
        let removed = 0;
        // Chunked so one command never carries tens of thousands of arguments.
        for (let i = 0; i < keys.length; i += 500) removed += await kv.del(keys.slice(i, i + 500));
        return removed;
      });
      return c.json({ success: true, count, key_type: type });
    });
}
