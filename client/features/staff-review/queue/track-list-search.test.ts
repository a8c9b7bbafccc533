// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { parseTrackListSearch, rememberTrackListPlace, trackListPlace } from "./track-list-search.ts";

describe("track list search parameters", () => {
  it("reads every field in the forms the router's parser hands over (numbers and booleans from JSON)", () => {
    expect(parseTrackListSearch({
      filename: 123,
      user: "ivan",
      date: "2025-03-05",
      direction: "label_koster",
      downloaded: true,
      warning: "clipping",
      sort: "-bpm",
      page: "3",
      page_size: 25,
    })).toEqual({
      filename: "123",
      user: "ivan",
      date: "2025-03-05",
      direction: "label_koster",
      downloaded: true,
      warning: "clipping",
      sort: "-bpm",
      page: 3,
      page_size: 25,
    });
    expect(parseTrackListSearch({ downloaded: "false", warning: "any", sort: "duration" })).toEqual({
      downloaded: false,
      warning: "any",
      sort: "duration",
    });
  });

  it("drops each bad value on its own, so the rest of the address still applies", () => {
    expect(parseTrackListSearch({
      filename: "x".repeat(201),
      date: "2025-02-30",
      direction: "label_unknown",
      downloaded: "maybe",
      warning: "loud",
      sort: "id; drop table",
      page: 0,
      page_size: 30,
      user: "kept",
    })).toEqual({ user: "kept" });
    expect(parseTrackListSearch({ page: -2, page_size: "100", sort: "--bpm" })).toEqual({ page_size: 100 });
    expect(parseTrackListSearch({ page: 2.5, date: "05.03.2025" })).toEqual({});
    expect(parseTrackListSearch({ page: { n: 2 }, filename: ["a"] })).toEqual({});
  });

  it("leaves defaults and empty values out, so an untouched list has a bare address", () => {
    expect(parseTrackListSearch({ filename: "", page: 1, page_size: 10, sort: "-upload_date" })).toEqual({});
    expect(parseTrackListSearch(undefined)).toEqual({});
    expect(parseTrackListSearch("page=2")).toEqual({});
  });
});

describe("the list's place for the way back", () => {
  afterEach(() => sessionStorage.clear());

  it("is kept per panel and read back through the same rules", () => {
    rememberTrackListPlace("/admin", { page: 4, warning: "too_quiet", sort: "loudness" });
    expect(trackListPlace("/admin")).toEqual({ page: 4, warning: "too_quiet", sort: "loudness" });
    // Never opened in this session: the moderator's queue starts at «Новые», oldest first (issue 31).
    expect(trackListPlace("/moderator")).toEqual({ review: "new", sort: "upload_date" });
    expect(trackListPlace("/admin")).not.toHaveProperty("review");
    rememberTrackListPlace("/moderator", {});
    expect(trackListPlace("/moderator")).toEqual({});
    sessionStorage.setItem("staffTrackList:/moderator", "{not json");
    expect(trackListPlace("/moderator")).toEqual({});
    sessionStorage.setItem("staffTrackList:/moderator", JSON.stringify({ page: "many", user: "ann" }));
    expect(trackListPlace("/moderator")).toEqual({ user: "ann" });
  });
});
