import { describe, expect, it } from "vitest";
import { REVIEW_STATUSES } from "./review.ts";
import { mayMove } from "./decision-states.ts";

describe("the decision states' transition table", () => {
  it("lets a person decide and an undo restore any state from any state", () => {
    for (const from of REVIEW_STATUSES) {
      for (const to of REVIEW_STATUSES) {
        expect(mayMove("decide", from, to)).toBe(true);
        expect(mayMove("undo", from, to)).toBe(true);
      }
    }
  });

  it("moves only new to listened on a listen", () => {
    const moves = REVIEW_STATUSES.flatMap((from) =>
      REVIEW_STATUSES.filter((to) => mayMove("listen", from, to)).map((to) => `${from}→${to}`)
    );
    expect(moves).toEqual(["new→listened"]);
  });

  it("declines automatically only a pair still awaiting a decision", () => {
    const moves = REVIEW_STATUSES.flatMap((from) =>
      REVIEW_STATUSES.filter((to) => mayMove("automatic", from, to)).map((to) => `${from}→${to}`)
    );
    expect(moves).toEqual(["new→declined", "listened→declined"]);
  });
});
