import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { client, read } from "../../lib/api.ts";
import type { InferResponseType } from "hono/client";
import { moderatorKeys, staffFaqQueries, tzOffset, useStaffFaqWrites } from "../../lib/staff-queries.ts";

export type { Faq } from "../../lib/staff-queries.ts";

/**
 * Query-option factories and write hooks of the moderator panel's own pages: dashboard and FAQ
 * (docs/CONVENTIONS.md rule 8). Calls go to /api/moderator, typed by the server's routes; the track pages'
 * calls are in features/staff-review, the moderator's status in lib/moderator-status.ts.
 */

/** Dashboard counts from one list call: `total` = tracks in the categories, `filtered` = downloaded. */
export const moderatorCountsQuery = () =>
  queryOptions({
    queryKey: [...moderatorKeys.dashboard, "counts"] as const,
    queryFn: async () => {
      const body = await read(
        client.moderator.tracks.$get({ query: { downloaded: "true", page: "1", page_size: "10" } }),
      );
      return { tracks: body.total, downloaded: body.filtered };
    },
    staleTime: 0,
  });

/**
 * The moderator's dashboard answer (issue 23): `review_queue`, per direction in their categories the
 * new, shortlisted and overdue counts.
 */
export const moderatorDashboardQuery = () =>
  queryOptions({
    queryKey: [...moderatorKeys.dashboard, "review-queue"] as const,
    queryFn: () => read(client.moderator.dashboard.$get()),
    staleTime: 0,
  });

/**
 * The moderator's response figures of the period (issue 24, decisions 0235, 0237): their directions'
 * and their own, a call of its own beside the dashboard's.
 */
export const moderatorResponseFiguresQuery = (period: FiguresPeriod = "month") =>
  queryOptions({
    queryKey: [...moderatorKeys.dashboard, "response-figures", period] as const,
    queryFn: () =>
      read(client.moderator.dashboard["response-figures"].$get({ query: { period, tz_offset: String(tzOffset()) } }))
        .then((b) => b.response_figures),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export type FiguresPeriod = "day" | "week" | "month" | "year";

const faqQueries = staffFaqQueries("/moderator", moderatorKeys.faq, { retryOne: false });
export const moderatorFaqsQuery = faqQueries.list;
export const moderatorFaqQuery = faqQueries.one;

export const useModeratorFaqWrites = () => useStaffFaqWrites("/moderator", moderatorKeys.faq);

/** The intake rules of the moderator's directions (issue 25), read-only: `GET /api/moderator/intake`. */
export type ModeratorIntakeRule = InferResponseType<typeof client.moderator.intake.$get>["intake"][number];
export const moderatorIntakeQuery = () =>
  queryOptions({
    queryKey: ["moderator", "intake"] as const,
    queryFn: async () => (await read(client.moderator.intake.$get())).intake,
    staleTime: 0,
  });
