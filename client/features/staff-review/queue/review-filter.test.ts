import { describe, expect, it } from "vitest";
import { REVIEW_STATUSES } from "../../../../domain/review.ts";
import { VOTE_FILTERS } from "../../../../domain/votes.ts";
import { parseTrackListSearch, TRACK_REVIEW_FILTERS, TRACK_VOTE_FILTERS } from "./track-list-search.ts";

describe("the review filter in the address (issue 13)", () => {
  it("offers exactly the domain's review states", () => {
    expect([...TRACK_REVIEW_FILTERS]).toEqual([...REVIEW_STATUSES]);
  });

  it("keeps a known state, drops an unknown one, and keeps the moderator's opening view", () => {
    expect(parseTrackListSearch({ review: "declined", direction: "label_koster" })).toEqual({
      review: "declined",
      direction: "label_koster",
    });
    expect(parseTrackListSearch({ review: "maybe" })).toEqual({});
    expect(parseTrackListSearch({ review: "new", sort: "upload_date" })).toEqual({
      review: "new",
      sort: "upload_date",
    });
  });

  it("keeps the server's `overdue` (issue 24), where the dashboards' overdue figure leads", () => {
    expect(parseTrackListSearch({ review: "overdue", direction: "label_koster", sort: "upload_date" })).toEqual({
      review: "overdue",
      direction: "label_koster",
      sort: "upload_date",
    });
  });

  it("keeps the server's `awaiting` (new or listened; issue 23)", () => {
    expect(parseTrackListSearch({ review: "awaiting", direction: "label_koster", sort: "upload_date" })).toEqual({
      review: "awaiting",
      direction: "label_koster",
      sort: "upload_date",
    });
  });
});

describe("the votes filter in the address (issue 24, decision 0230)", () => {
  it("offers exactly the server's votes filters, keeps a known one and the score sort, drops the rest", () => {
    expect([...TRACK_VOTE_FILTERS]).toEqual([...VOTE_FILTERS]);
    expect(parseTrackListSearch({ votes: "second_ear", sort: "-score" })).toEqual({
      votes: "second_ear",
      sort: "-score",
    });
    expect(parseTrackListSearch({ votes: "maybe", sort: "-votes" })).toEqual({});
  });
});
