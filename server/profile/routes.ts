import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { registerLinkAccounts } from "./link-accounts.ts";

/** The signed-in user's profile: /api/profile/*. */
export function createProfileRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  registerLinkAccounts(app, ctx);
  return app;
}
