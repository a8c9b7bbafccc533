import { useMutation, useQueryClient } from "@tanstack/react-query";
import { client, read } from "../../lib/api.ts";
import { adminKeys, staffFaqQueries, useStaffFaqWrites } from "../../lib/staff-queries.ts";

export type { Faq } from "../../lib/staff-queries.ts";

/**
 * The admin's FAQ queries and writes (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

const faqQueries = staffFaqQueries("/admin", adminKeys.faq);
export const adminFaqsQuery = faqQueries.list;
export const adminFaqQuery = faqQueries.one;

export const useAdminFaqWrites = () => useStaffFaqWrites("/admin", adminKeys.faq);

/**
 * Spec 2 §4: moving swaps the order values of an entry and its neighbour with two updates. The
 * list is refetched whatever happened, so a half-done move shows as it is.
 */
export function useMoveAdminFaq() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (moves: Array<{ id: number; order: number }>) => {
      for (const m of moves) {
        await read(admin.faq[":id"].$put({ param: { id: String(m.id) }, json: { order: m.order } }));
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.faq }),
  });
}
