import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { type client, read } from "../../../lib/api.ts";
import type { Direction } from "../../../../domain/directions.ts";
import { panel, type StaffBase } from "../../../lib/staff-queries.ts";

/**
 * The decision calls both panels share (issue 13, decision 0160): the decline templates as the
 * decision form reads them, and PUT `${base}/tracks/:id/decisions/:direction`.
 */

export type DeclineTemplate = InferResponseType<typeof client.admin["decline-templates"]["$get"]>[
  "templates"
][number];

export type DecisionBody = InferRequestType<
  typeof client.admin.tracks[":id"]["decisions"][":direction"]["$put"]
>["json"];

export const declineTemplatesKey = (base: StaffBase) => [base, "decline-templates"] as const;

export const declineTemplatesQuery = (base: StaffBase) =>
  queryOptions({
    queryKey: declineTemplatesKey(base),
    queryFn: () => read(panel(base)["decline-templates"].$get({ query: {} })).then((b) => b.templates ?? []),
    staleTime: 30_000,
  });

/**
 * Records a decision; the panel's track queries (list and single track) are refreshed afterwards,
 * after a refusal too (a 409 carries a decision someone else saved, decision 0199).
 */
export function useDecide(base: StaffBase, tracksKey: readonly string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction, body }: { id: number; direction: Direction; body: DecisionBody }) =>
      read(
        panel(base).tracks[":id"].decisions[":direction"].$put({
          param: { id: String(id), direction },
          json: body,
        }),
      ),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: tracksKey, refetchType: "all" });
    },
  });
}
