import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { client, read } from "../../lib/api.ts";

/**
 * «Приём треков» (issue 25): the intake rules of every direction, `GET /api/admin/intake`, and the
 * save of one direction's rule, `PUT /api/admin/intake/{direction}`.
 */
export type IntakeRule = InferResponseType<typeof client.admin.intake.$get>["intake"][number];

/** The fields an admin writes (the rest — direction, updated_at, updated_by — the server keeps). */
export type IntakeRuleInput = Pick<
  IntakeRule,
  | "open"
  | "pause_message"
  | "cap_per_30_days"
  | "cooldown_hours"
  | "tempo_min"
  | "tempo_max"
  | "tempo_mode"
  | "promise_days"
  | "auto_decline_after_days"
  | "staff_chat_id"
  | "late_message"
  | "catalogue_prefix"
  | "catalogue_next"
  | "release_extended"
  | "release_instrumental"
>;

export const adminIntakeKey = ["admin", "intake"] as const;

export const adminIntakeQuery = () =>
  queryOptions({
    queryKey: adminIntakeKey,
    queryFn: async () => (await read(client.admin.intake.$get())).intake,
    staleTime: 0,
  });

/** Saves one direction's rule; the page's list and the upload page's config are read again. */
export function useSaveIntakeRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ direction, json }: { direction: string; json: IntakeRuleInput }) =>
      read(client.admin.intake[":direction"].$put({ param: { direction }, json })),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: ["config"] });
      void queryClient.invalidateQueries({ queryKey: ["moderator", "intake"] });
      await queryClient.invalidateQueries({ queryKey: adminIntakeKey });
    },
  });
}
