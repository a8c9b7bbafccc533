import { Hono } from "hono";
import { z } from "zod";
import { isCalendarDate, LABEL_DIRECTIONS, RELEASE_STAGE_LIST } from "../../domain/releases.ts";
import { labelCopySchema, releasePatchSchema } from "../../domain/release-schemas.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { labelDay } from "../../domain/release-desk.ts";

/**
 * The release desk's calls (issue 34). Staff: `GET|PATCH /api/{admin|moderator}/releases…` (the
 * caller mounts them behind its guard; the scope is the caller's own), the calendar, the exports and
 * the label copy. Artist: `GET /api/releases(/{id})` (own only, never the staff's note) and
 * `PUT /api/releases/{id}/label-copy` (staff may use it too, within their categories).
 */

const date = (label: string) =>
  z.string().refine(isCalendarDate, { message: `${label}: ожидается дата ГГГГ-ММ-ДД` }).optional();

const direction = z.enum(LABEL_DIRECTIONS, { message: "direction: label_neuropunk или label_koster" }).optional();

export const releaseListQuerySchema = z.object({
  direction,
  stage: z.enum(RELEASE_STAGE_LIST as [string, ...string[]], { message: "stage: неизвестная стадия" }).optional(),
  from: date("from"),
  to: date("to"),
  page: z.coerce.number({ message: "page: ожидается номер страницы" }).int().min(1).default(1),
  sort: z.enum(["newest", "oldest"], { message: "sort: newest или oldest" }).optional(),
});

const rangeSchema = z.object({ direction, from: date("from"), to: date("to") });

/** The current month (Moscow) when the calendar is asked without dates. */
function monthOf(now: Date) {
  const day = labelDay(now);
  const [y, m] = day.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${day.slice(0, 7)}-01`, to: `${day.slice(0, 7)}-${String(last).padStart(2, "0")}` };
}

export function createStaffReleaseRoutes(ctx: AppContext) {
  const { releases } = ctx;
  return new Hono<AppEnv>()
    .get("/", validate("query", releaseListQuerySchema), async (c) => {
      const q = c.req.valid("query");
      const list = await releases.list(c.get("user"), { ...q, stage: q.stage as never });
      return c.json({ success: true as const, ...list });
    })
    .get("/calendar", validate("query", rangeSchema), async (c) => {
      const q = c.req.valid("query");
      const month = monthOf(ctx.clock.now());
      const cal = await releases.calendar(c.get("user"), {
        direction: q.direction,
        from: q.from ?? month.from,
        to: q.to ?? month.to,
      });
      return c.json({ success: true as const, ...cal });
    })
    .get("/export.csv", validate("query", rangeSchema), async (c) => {
      return await releases.exportCsv(c.get("user"), c.req.valid("query"));
    })
    .get("/:id", async (c) => {
      const one = await releases.one(c.get("user"), parseId(c.req.param("id")));
      return c.json({ success: true as const, ...one });
    })
    .patch("/:id", validate("json", releasePatchSchema), async (c) => {
      const one = await releases.patch(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true as const, ...one });
    })
    .put("/:id/label-copy", validate("json", labelCopySchema), async (c) => {
      const one = await releases.staffLabelCopy(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true as const, ...one });
    })
    .get("/:id/label-copy.csv", async (c) => await releases.oneCsv(c.get("user"), parseId(c.req.param("id"))))
    .get("/:id/files.zip", async (c) => await releases.filesZip(c.get("user"), parseId(c.req.param("id"))));
}

/** /api/releases: the artist's own. */
export function createArtistReleaseRoutes(ctx: AppContext) {
  const { releases } = ctx;
  return new Hono<AppEnv>()
    .use("*", ctx.guards.user)
    .get("/", async (c) => c.json({ success: true as const, releases: await releases.artistList(c.get("user").id) }))
    .get("/:id", async (c) => {
      const release = await releases.artistOne(c.get("user").id, parseId(c.req.param("id")));
      return c.json({ success: true as const, release });
    })
    .put("/:id/label-copy", validate("json", labelCopySchema), async (c) => {
      const user = c.get("user");
      const id = parseId(c.req.param("id"));
      const copy = c.req.valid("json");
      const release = await releases.anyLabelCopy(user, id, copy);
      return c.json({ success: true as const, release });
    });
}
