import { useMutation, useQueryClient } from "@tanstack/react-query";
import { declineTemplatesKey } from "./decision-queries.ts";
import { client, read } from "../../../lib/api.ts";
import type { TemplateOutcome } from "../../../../domain/review.ts";

/**
 * Writes of the admin's decline templates (issue 13, decision 0162). The list itself is the
 * decision form's `declineTemplatesQuery("/admin")`; a write refreshes it (and the moderator's copy).
 */

export interface TemplateInput {
  title: string;
  text: string;
  /** The decision it goes with (decision 0224). */
  outcome: TemplateOutcome;
}

export function useDeclineTemplateWrites() {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: declineTemplatesKey("/admin") });
    void queryClient.invalidateQueries({ queryKey: declineTemplatesKey("/moderator") });
  };
  const t = client.admin["decline-templates"];
  return {
    create: useMutation({
      mutationFn: (json: TemplateInput) => read(t.$post({ json })),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, json }: { id: number; json: TemplateInput }) =>
        read(t[":id"].$put({ param: { id: String(id) }, json })),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => read(t[":id"].$delete({ param: { id: String(id) } })),
      onSuccess: refresh,
    }),
  };
}
