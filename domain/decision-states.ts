import { REVIEW_STATUSES, type ReviewStatus } from "./review.ts";

/**
 * Which moves a pair's review state may make (issue 33): one transition table that every writer of a
 * pair asks — the staff's decision (`decidePairs`), the undo, the listening receipt and the response
 * promise's automatic decline. It writes down what the product allows today; nothing changed with it
 * (decision 0331):
 *
 * - **decide**: a person may set any of the five states from any state, the same one included (a
 *   note alone changes nothing else; decisions 0151, 0275: a decision is taken back by deciding
 *   again, and a shortlisted pair may go back to `new`).
 * - **undo**: a pair goes back to whatever state it had before the undone call (0222), so any state
 *   to any state.
 * - **listen**: a listening receipt moves `new` to `listened`, and nothing else (0197).
 * - **automatic**: the sweep declines a pair still awaiting a decision, `new` or `listened` (0241);
 *   a shortlisted pair is held on purpose and is never declined by it (0152).
 */
export type DecisionMove = "decide" | "undo" | "listen" | "automatic";

const ANY: readonly ReviewStatus[] = REVIEW_STATUSES;
const NONE: readonly ReviewStatus[] = [];

export const DECISION_TRANSITIONS: Readonly<
  Record<DecisionMove, Readonly<Record<ReviewStatus, readonly ReviewStatus[]>>>
> = {
  decide: { new: ANY, listened: ANY, shortlisted: ANY, accepted: ANY, declined: ANY },
  undo: { new: ANY, listened: ANY, shortlisted: ANY, accepted: ANY, declined: ANY },
  listen: { new: ["listened"], listened: NONE, shortlisted: NONE, accepted: NONE, declined: NONE },
  automatic: { new: ["declined"], listened: ["declined"], shortlisted: NONE, accepted: NONE, declined: NONE },
};

/** May a pair in state `from` be moved to `to` by this kind of move. */
export function mayMove(move: DecisionMove, from: ReviewStatus, to: ReviewStatus): boolean {
  return DECISION_TRANSITIONS[move][from].includes(to);
}
