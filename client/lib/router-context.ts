import type { QueryClient } from "@tanstack/react-query";
import type { Auth } from "./auth.ts";

/**
 * What every route's `beforeLoad` and loader receive. In its own module so the guards (lib/guards.ts)
 * can name it without importing client/router.tsx, which imports the guards.
 */
export interface RouterContext {
  auth: Auth;
  queryClient: QueryClient;
}
