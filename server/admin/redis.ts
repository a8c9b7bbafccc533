import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";
import type { StatusStore } from "../lib/kv.ts";
import { validate } from "../lib/validate.ts";

/**
 * The status-store page (spec 2 "Cache admin page", §3 "Cache data"): GET /redis-data,
 * DELETE /redis-key/:key, POST /cleanup-redis. Only the product's own upload-status families are
 * listed or removed (sign-in state under `oauth:` is not), through the StatusStore interface only,
 * so it behaves the same on Upstash and on the embedded store. The page is in English, and so are
 * the messages here.
 */

export const CACHE_FAMILIES = ["track_ids", "track_status", "errors", "success"] as const;
export type CacheFamily = (typeof CACHE_FAMILIES)[number];

/** How many entries of each family the page lists; the statistics still count all of them. */
export const LIST_LIMIT = 500;

const KEY_RE = /^(track_ids|track_status|errors|success):[A-Za-z0-9_.-]{1,100}$/;

export function familyOf(key: string): CacheFamily | null {
  return KEY_RE.test(key) ? (key.slice(0, key.indexOf(":")) as CacheFamily) : null;
}

const byNaturalKey = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

async function familyKeys(kv: StatusStore, family: CacheFamily): Promise<string[]> {
  // The glob could match more than the family's well-formed keys; keep only those the page may touch.
  return (await kv.keys(`${family}:*`)).filter((k) => familyOf(k) === family).sort(byNaturalKey);
}

async function entries(kv: StatusStore, keys: string[]) {
  const shown = keys.slice(0, LIST_LIMIT);
  const values = await kv.mget(shown);
  return shown.map((key, i) => ({ key, value: values[i] }));
}

const cleanupSchema = z.object({
  key_type: z.enum(["track_ids", "track_status", "errors", "success", "all"], {
    message: "key_type must be one of: track_ids, track_status, errors, success, all",
  }),
});

export function createAdminRedisRoutes(ctx: AppContext) {
  const { kv } = ctx;
  return new Hono<AppEnv>()
    .get("/redis-data", async (c) => {
      const [trackIdKeys, statusKeys, errorKeys, successKeys] = await Promise.all(
        CACHE_FAMILIES.map((f) => familyKeys(kv, f)),
      );
      const [ids, statuses, errors] = await Promise.all([
        entries(kv, trackIdKeys),
        entries(kv, statusKeys),
        entries(kv, errorKeys),
      ]);
      return c.json({
        success: true,
        stats: {
          track_ids: trackIdKeys.length,
          track_status: statusKeys.length,
          errors: errorKeys.length,
          success: successKeys.length,
          total: trackIdKeys.length + statusKeys.length + errorKeys.length + successKeys.length,
        },
        trackIds: ids.map(({ key, value }) => ({
          key,
          values: Array.isArray(value) ? value : value === null || value === undefined ? [] : [value],
        })),
        trackStatus: statuses.map(({ key, value }) => ({
          key,
          value: value && typeof value === "object" && !Array.isArray(value)
            ? value
            : { status: value === null || value === undefined ? null : String(value), filename: null },
        })),
        errorKeys: errors.map(({ key, value }) => ({ key, value })),
        successCount: successKeys.length,
      });
    })
    .delete("/redis-key/:key", async (c) => {
      const key = c.req.param("key");
      if (!familyOf(key)) throw badRequest("Only track_ids:, track_status:, errors: and success: keys can be removed");
      const removed = await kv.del([key]);
      if (removed === 0) throw notFound(`Key ${key} not found`);
      return c.json({ success: true, key, count: removed });
    })
    .post("/cleanup-redis", validate("json", cleanupSchema), async (c) => {
      const type = c.req.valid("json").key_type;
      const families = type === "all" ? [...CACHE_FAMILIES] : [type as CacheFamily];
      const keys = (await Promise.all(families.map((f) => familyKeys(kv, f)))).flat();
      let count = 0;
      // Chunked so one command never carries tens of thousands of arguments.
      for (let i = 0; i < keys.length; i += 500) count += await kv.del(keys.slice(i, i + 500));
      return c.json({ success: true, count, key_type: type });
    });
}
