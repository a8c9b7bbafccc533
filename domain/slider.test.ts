import { describe, expect, it } from "vitest";
import { SLIDER_TEXTS, sliderInputSchema, tileProblem } from "./slider.ts";

const link = { tile_type: "link" as const, redirect_url: "/about", track_url: null, has_image: true };
const track = {
  tile_type: "track" as const,
  redirect_url: null,
  track_url: "https://soundcloud.com/x/y",
  has_image: false,
};

describe("slider tile rules", () => {
  it("needs a link address, in format, and an image for a link tile, in that order", () => {
    expect(tileProblem(link)).toBeNull();
    expect(tileProblem({ ...link, redirect_url: " https://neuropunk.example/x " })).toBeNull();
    expect(tileProblem({ ...link, redirect_url: " ", has_image: false })).toBe(SLIDER_TEXTS.linkUrlRequired);
    expect(tileProblem({ ...link, redirect_url: "//evil.example", has_image: false })).toBe(SLIDER_TEXTS.linkUrlFormat);
    expect(tileProblem({ ...link, has_image: false })).toBe('Изображение обязательно для плиток типа "Ссылка"');
  });

  it("needs an http(s) track address for a track tile, and no image", () => {
    expect(tileProblem(track)).toBeNull();
    expect(tileProblem({ ...track, track_url: "" })).toBe('URL трека обязателен для плиток типа "Трек"');
    expect(tileProblem({ ...track, track_url: "/about" })).toBe(SLIDER_TEXTS.trackUrlFormat);
    expect(tileProblem({ ...track, track_url: "javascript:alert(1)" })).toBe(SLIDER_TEXTS.trackUrlFormat);
  });
});

describe("slider input schema", () => {
  const schema = sliderInputSchema();

  it("stores addresses trimmed and reads blank, null and undefined as none", () => {
    expect(schema.parse({ tile_type: "link", redirect_url: " /faq ", track_url: "null" }))
      .toEqual({ tile_type: "link", redirect_url: "/faq", track_url: null });
    expect(
      schema.parse({ tile_type: "track", track_url: "https://soundcloud.com/a", redirect_url: "undefined" })
        .redirect_url,
    ).toBeNull();
  });

  it("refuses an unknown type, a bad address and an over-long one with the form's texts", () => {
    const first = (v: unknown) => schema.safeParse(v).error?.issues[0]?.message;
    expect(first({ tile_type: "video" })).toBe(SLIDER_TEXTS.badTileType);
    expect(first({ tile_type: "link", redirect_url: "ftp://x" })).toBe(SLIDER_TEXTS.linkUrlFormat);
    expect(first({ tile_type: "track", track_url: "/about" })).toBe(SLIDER_TEXTS.trackUrlFormat);
    expect(first({ tile_type: "link", redirect_url: `https://x.ru/${"a".repeat(2000)}` })).toBe(
      SLIDER_TEXTS.urlTooLong,
    );
  });
});
