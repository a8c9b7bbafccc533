import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, read } from "../../lib/api.ts";
import { adminKeys, tzOffset } from "../../lib/staff-queries.ts";

/**
 * The admin dashboard's figures (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes.
 */

const admin = client.admin;

export type DashboardStats = InferResponseType<typeof admin.dashboard.$get>["stats"];
export type Period = DashboardStats["track_timeline"]["period"];

export const adminDashboardQuery = (period: Period) =>
  queryOptions({
    queryKey: [...adminKeys.dashboard, period] as const,
    queryFn: () =>
      read(admin.dashboard.$get({ query: { period, tz_offset: String(tzOffset()) } })).then((b) => b.stats),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/**
 * The response figures of the period (issue 24, decisions 0235, 0237): a call of its own, fetched
 * beside the dashboard's, so the dashboard never waits for them.
 */
export const adminResponseFiguresQuery = (period: Period) =>
  queryOptions({
    queryKey: [...adminKeys.dashboard, "response-figures", period] as const,
    queryFn: () =>
      read(admin.dashboard["response-figures"].$get({ query: { period, tz_offset: String(tzOffset()) } })).then((b) =>
        b.response_figures
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** The labels' release figures (issue 34): waiting for materials, medians, this month. */
export const adminReleaseFiguresQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.dashboard, "releases"] as const,
    queryFn: () => read(admin.dashboard.releases.$get()).then((b) => b.release_figures),
    staleTime: 0,
  });
