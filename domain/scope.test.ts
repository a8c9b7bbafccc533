import { describe, expect, it } from "vitest";
import { inScope, isVisible, maySeeTrack, scopeDirections, scopeOf } from "./scope.ts";

const moderator = (categories: string, id = 7) => ({
  id,
  is_admin: false,
  is_moderator: true,
  moderator_categories: categories,
});

describe("scope", () => {
  it("derives scopes: admin *, moderator categories, others nothing", () => {
    expect(scopeOf({ is_admin: true, is_moderator: false, moderator_categories: "" })).toBe("*");
    expect(scopeOf({ is_admin: false, is_moderator: true, moderator_categories: "*" })).toBe("*");
    expect(scopeOf({ is_admin: false, is_moderator: true, moderator_categories: "label_koster,bogus" })).toEqual([
      "label_koster",
    ]);
    expect(scopeOf({ is_admin: false, is_moderator: false, moderator_categories: "label_koster" })).toEqual([]);
    expect(scopeOf({ is_admin: false, is_moderator: true, moderator_categories: null })).toEqual([]);
  });

  it("sees a track when one of its directions is in scope", () => {
    expect(isVisible(["label_neuropunk", "show_neurogon"], ["show_neurogon"])).toBe(true);
    expect(isVisible(["label_neuropunk"], ["label_koster", "show_neurogon"])).toBe(false);
    expect(isVisible([], "*")).toBe(true);
    expect(isVisible(["label_koster"], [])).toBe(false);
  });

  it("lets a moderator set only the directions in their scope", () => {
    expect(inScope("label_koster", ["label_koster"])).toBe(true);
    expect(inScope("label_neuropunk", ["label_koster"])).toBe(false);
    expect(inScope("radio_k_profit", "*")).toBe(true);
    expect(scopeDirections(["show_neurogon", "label_koster"])).toEqual(["label_koster", "show_neurogon"]);
    expect(scopeDirections("*")).toHaveLength(6);
    expect(scopeDirections([])).toEqual([]);
  });

  it("lets the owner, an admin and a moderator of one of its directions see a track; nobody else", () => {
    const track = { user_id: 7, directions: "label_neuropunk,podcast_koster" };
    const stranger = { id: 8, is_admin: false, is_moderator: false, moderator_categories: "" };
    expect(maySeeTrack({ ...stranger, id: 7 }, track)).toBe(true);
    expect(maySeeTrack(stranger, track)).toBe(false);
    expect(maySeeTrack({ ...stranger, is_admin: true }, track)).toBe(true);
    expect(maySeeTrack(moderator("podcast_koster", 9), track)).toBe(true);
    expect(maySeeTrack(moderator("label_koster", 9), track)).toBe(false);
    // A guest upload has no owner: a missing owner never matches a person.
    expect(maySeeTrack(moderator("label_koster", 9), { user_id: null, directions: "label_koster" })).toBe(true);
    expect(maySeeTrack({ ...stranger, id: 0 }, { user_id: null, directions: "label_koster" })).toBe(false);
  });
});
