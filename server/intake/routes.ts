import { Hono } from "hono";
import { isDirection } from "../../domain/directions.ts";
import { INTAKE_TEXTS, intakeUpdateSchema } from "../../domain/intake-rules.ts";
import { scopeDirections } from "../../domain/scope.ts";
import { roleOf } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest } from "../lib/http-error.ts";
import { validate } from "../http/validate.ts";
import { ruleList, saveRule } from "./rules.ts";

function directionParam(value: string) {
  if (!isDirection(value)) throw badRequest(INTAKE_TEXTS.unknownDirection);
  return value;
}

/**
 * /api/admin/intake (issue 25): every direction's rules, in DIRECTIONS order (defaults for a direction
 * never saved), one direction's (`/{direction}`), and its change (any subset of the writable fields).
 */
export function createAdminIntakeRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json({ success: true as const, intake: await ruleList(ctx.db) }))
    .get("/:direction", async (c) => {
      const direction = directionParam(c.req.param("direction"));
      return c.json({ success: true as const, rule: (await ruleList(ctx.db, [direction]))[0] });
    })
    .put("/:direction", validate("json", intakeUpdateSchema), async (c) => {
      const direction = directionParam(c.req.param("direction"));
      const rule = await saveRule(ctx.db, direction, c.req.valid("json"), c.get("user").id, ctx.clock.now());
      ctx.logger.info("intake rules changed", { direction, by: c.get("user").id });
      return c.json({ success: true as const, rule });
    });
}

/** /api/moderator/intake: the rules of the caller's categories, to read (admins: every direction). */
export function createModeratorIntakeRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const categories = roleOf(c.get("user")).categories;
      const only = categories === "*" ? undefined : scopeDirections(categories);
      return c.json({ success: true as const, intake: await ruleList(ctx.db, only) });
    });
}
