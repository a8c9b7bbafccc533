import type { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** POST /api/profile/link-accounts (filled in by the sign-in work). */
export function registerLinkAccounts(_app: Hono<AppEnv>, _ctx: AppContext) {}
