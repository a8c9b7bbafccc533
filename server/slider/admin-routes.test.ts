import { hiddenCharsMessage } from "../../domain/hidden-chars.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { naughtyStrings, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { SLIDER_TEXTS } from "../../domain/slider.ts";

const {
  imageRequired: LINK_IMAGE_REQUIRED,
  linkUrlFormat: LINK_URL_FORMAT,
  linkUrlRequired: LINK_URL_REQUIRED,
  trackUrlRequired: TRACK_URL_REQUIRED,
  trackUrlFormat: URL_SCHEME,
  imageBadFormat: IMAGE_BAD_FORMAT,
  imageTooLarge: IMAGE_TOO_LARGE,
} = SLIDER_TEXTS;

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture()));
afterAll(() => f.close());

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const JPEG = new Uint8Array([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0x00,
  0x10,
  0x4a,
  0x46,
  0x49,
  0x46,
  0x00,
  0x01,
  0,
  0,
  0,
  0,
  0xff,
  0xd9,
]);

type Tile = {
  id: number;
  tile_type: string;
  image_filename: string | null;
  image_url: string | null;
  redirect_url: string | null;
  track_url: string | null;
};

function form(fields: Record<string, string>, image?: { bytes: Uint8Array; name: string; type?: string }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (image) {
    fd.append(
      "image",
      new File([image.bytes as Uint8Array<ArrayBuffer>], image.name, { type: image.type ?? "image/jpeg" }),
    );
  }
  return fd;
}

const send = (method: string, path: string, fd: FormData) => f.call(method, path, { body: fd });

const exists = async (tile: Tile) => (await f.t.ctx.publicStorage.stat(`slider/${tile.image_filename}`)) !== null;

describe("admin slider", () => {
  it("creates a link tile from multipart: a PNG named .jpg passes, stored by content under slider/", async () => {
    const r = await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com/release" },
        { bytes: PNG, name: "cover.jpg", type: "image/jpeg" },
      ),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const tile = r.body.slider as Tile;
    expect(tile).toMatchObject({ tile_type: "link", redirect_url: "https://example.com/release", track_url: null });
    expect(tile.image_filename).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(tile.image_url).toBe(`/static/storage/slider/${tile.image_filename}`);
    const served = await f.t.app.request(tile.image_url!);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // The public list shows it with the image address.
    const pub = await (await f.t.app.request("/api/slider")).json();
    expect(pub.success).toBe(true);
    expect(pub.sliders.find((s: Tile) => s.id === tile.id).image_url).toBe(tile.image_url);
  });

  it("refuses a text file named .png, and an image over 2 MB, leaving nothing behind", async () => {
    const before = [...Deno.readDirSync(`${f.t.ctx.staticDir}/storage`)].length;
    const text = await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com" },
        {
          bytes: new TextEncoder().encode("just some text, not an image at all"),
          name: "cover.png",
          type: "image/png",
        },
      ),
    );
    expect(text).toMatchObject({ status: 400, body: { success: false, error: IMAGE_BAD_FORMAT } });
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(JPEG.subarray(0, 4));
    const large = await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com" },
        { bytes: big, name: "big.jpg" },
      ),
    );
    expect(large.status).toBe(413);
    expect(large.body).toEqual({ success: false, error: IMAGE_TOO_LARGE });
    const tiny = await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com" },
        { bytes: new Uint8Array([0xff]), name: "x.jpg" },
      ),
    );
    expect(tiny.body.error).toBe(IMAGE_BAD_FORMAT);
    const sliderDir = `${f.t.ctx.staticDir}/storage/slider`;
    const names = (() => {
      try {
        return [...Deno.readDirSync(sliderDir)].map((e) => e.name);
      } catch {
        return [];
      }
    })();
    expect(names.filter((n) => n.includes(".part-"))).toEqual([]);
    expect([...Deno.readDirSync(`${f.t.ctx.staticDir}/storage`)].length).toBe(before);
  });

  it("exactly 2 MB is accepted", async () => {
    const bytes = new Uint8Array(2 * 1024 * 1024);
    bytes.set(JPEG);
    const r = await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com" },
        { bytes, name: "max.jpeg" },
      ),
    );
    expect(r.status).toBe(201);
    expect((r.body.slider as Tile).image_filename).toMatch(/\.jpg$/);
  });

  it("applies the tile rules with the spec's texts", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tile_type: "link", redirect_url: "", image_filename: null }, LINK_URL_REQUIRED],
      [{ tile_type: "link", redirect_url: null }, LINK_URL_REQUIRED],
      [{ tile_type: "link", redirect_url: "https://example.com", image_filename: null }, LINK_IMAGE_REQUIRED],
      [{ tile_type: "track", track_url: "" }, TRACK_URL_REQUIRED],
      [{ tile_type: "track" }, TRACK_URL_REQUIRED],
      [{ tile_type: "track", track_url: "javascript:alert(1)" }, URL_SCHEME],
      [{ tile_type: "track", track_url: "ftp://example.com/a" }, URL_SCHEME],
      [{ tile_type: "link", redirect_url: "data:text/html,x" }, LINK_URL_FORMAT],
      [{ tile_type: "link", redirect_url: "example.com" }, LINK_URL_FORMAT],
      [{ tile_type: "video", track_url: "https://example.com" }, "Тип плитки должен быть link или track"],
    ];
    for (const [json, error] of cases) {
      const r = await f.call("POST", "/api/admin/slider", { json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    // Multipart without an image for a link tile.
    const noImage = await send(
      "POST",
      "/api/admin/slider",
      form({ tile_type: "link", redirect_url: "https://example.com" }),
    );
    expect(noImage.body.error).toBe(LINK_IMAGE_REQUIRED);
    // A link tile refused for its URL does not keep the uploaded image.
    const refused = await send(
      "POST",
      "/api/admin/slider",
      form({ tile_type: "link", redirect_url: "" }, { bytes: PNG, name: "a.png" }),
    );
    expect(refused.body.error).toBe(LINK_URL_REQUIRED);
    const left = [...Deno.readDirSync(`${f.t.ctx.staticDir}/storage/slider`)].length;
    const tiles = ((await f.call("GET", "/api/admin/slider")).body.sliders as Tile[]).filter((t) => t.image_filename);
    expect(left).toBe(tiles.length);
  });

  it("takes a site path as a link tile's URL, so a seeded tile saves unchanged; refuses other schemes and //host", async () => {
    const made = await send(
      "POST",
      "/api/admin/slider",
      form({ tile_type: "link", redirect_url: "/about" }, { bytes: PNG, name: "a.png" }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const tile = made.body.slider as Tile;
    expect(tile.redirect_url).toBe("/about");
    // The edit form sends the tile back as it came.
    const same = await f.call("PUT", `/api/admin/slider/${tile.id}`, {
      json: {
        tile_type: "link",
        redirect_url: tile.redirect_url,
        track_url: null,
        image_filename: tile.image_filename,
      },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.slider).toMatchObject({ redirect_url: "/about", image_filename: tile.image_filename });
    for (const ok of ["/", "/faq", "/faq?x=1#q2", " /privacy ", "https://example.com/a", "http://example.com"]) {
      const r = await f.call("PUT", `/api/admin/slider/${tile.id}`, { json: { tile_type: "link", redirect_url: ok } });
      expect(r.status, ok).toBe(200);
      expect((r.body.slider as Tile).redirect_url).toBe(ok.trim());
    }
    const bad = [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,x",
      "//evil.example/x",
      "/\\evil.example/x",
      "/\t/evil.example",
      "about",
      "/ about",
    ];
    for (const url of bad) {
      const r = await f.call("PUT", `/api/admin/slider/${tile.id}`, { json: { tile_type: "link", redirect_url: url } });
      expect(r.status, url).toBe(400);
      // A tab is refused before the link's form, named, as in every one-line field (decision 0305).
      expect(r.body).toEqual({
        success: false,
        error: url.includes("\t") ? hiddenCharsMessage(["\t"]) : LINK_URL_FORMAT,
      });
    }
    // A multipart create is held to the same rule.
    const scripted = await send(
      "POST",
      "/api/admin/slider",
      form({ tile_type: "link", redirect_url: "//evil.example" }, { bytes: PNG, name: "b.png" }),
    );
    expect(scripted.body).toEqual({ success: false, error: LINK_URL_FORMAT });
    // A track tile plays from the streaming service: a site path is no track.
    const track = await f.call("POST", "/api/admin/slider", { json: { tile_type: "track", track_url: "/about" } });
    expect(track.body).toEqual({ success: false, error: URL_SCHEME });
    expect(((await f.call("GET", `/api/admin/slider/${tile.id}`)).body.slider as Tile).redirect_url).toBe(
      "http://example.com",
    );
  });

  it("creates a track tile from JSON, without an image", async () => {
    const r = await f.call("POST", "/api/admin/slider", {
      json: { tile_type: "track", track_url: "https://soundcloud.com/a/b", redirect_url: null, image_filename: null },
    });
    expect(r.status).toBe(201);
    expect(r.body.slider).toMatchObject({
      tile_type: "track",
      track_url: "https://soundcloud.com/a/b",
      image_filename: null,
      image_url: null,
    });
    const got = await f.call("GET", `/api/admin/slider/${(r.body.slider as Tile).id}`);
    expect(got.body.slider).toEqual(r.body.slider);
  });

  it("updates: JSON keeps the image, a new image replaces and removes the old, switching to track drops it", async () => {
    const created = (await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com/1" },
        { bytes: JPEG, name: "a.jpg" },
      ),
    )).body.slider as Tile;
    const kept = await f.call("PUT", `/api/admin/slider/${created.id}`, {
      json: {
        tile_type: "link",
        redirect_url: "https://example.com/2",
        track_url: null,
        image_filename: created.image_filename,
      },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.slider).toMatchObject({
      redirect_url: "https://example.com/2",
      image_filename: created.image_filename,
    });
    const viaUrl = await f.call("PUT", `/api/admin/slider/${created.id}`, {
      json: { tile_type: "link", redirect_url: "https://example.com/2", image_filename: created.image_url },
    });
    expect((viaUrl.body.slider as Tile).image_filename).toBe(created.image_filename);
    const foreign = await f.call("PUT", `/api/admin/slider/${created.id}`, {
      json: { tile_type: "link", redirect_url: "https://example.com/2", image_filename: "../../app.db" },
    });
    expect(foreign.status).toBe(400);

    const replaced = await send(
      "PUT",
      `/api/admin/slider/${created.id}`,
      form(
        { tile_type: "link", redirect_url: "https://example.com/3" },
        { bytes: PNG, name: "b.png" },
      ),
    );
    const next = replaced.body.slider as Tile;
    expect(next.image_filename).toMatch(/\.png$/);
    expect(await exists(next)).toBe(true);
    expect(await exists(created)).toBe(false);

    const removed = await f.call("PUT", `/api/admin/slider/${created.id}`, {
      json: { tile_type: "link", redirect_url: "https://example.com/3", image_filename: null },
    });
    expect(removed.body.error).toBe(LINK_IMAGE_REQUIRED);
    expect(await exists(next)).toBe(true);

    const toTrack = await f.call("PUT", `/api/admin/slider/${created.id}`, {
      json: { tile_type: "track", track_url: "https://soundcloud.com/x", redirect_url: null },
    });
    expect(toTrack.body.slider).toMatchObject({ tile_type: "track", image_filename: null, redirect_url: null });
    expect(await exists(next)).toBe(false);
    expect(
      (await f.call("PUT", "/api/admin/slider/424242", { json: { tile_type: "track", track_url: "https://a.b" } }))
        .status,
    )
      .toBe(404);
  });

  it("deletes a tile with its image", async () => {
    const tile = (await send(
      "POST",
      "/api/admin/slider",
      form(
        { tile_type: "link", redirect_url: "https://example.com" },
        { bytes: PNG, name: "c.png" },
      ),
    )).body.slider as Tile;
    expect(await exists(tile)).toBe(true);
    expect((await f.call("DELETE", `/api/admin/slider/${tile.id}`)).body).toEqual({ success: true });
    expect(await exists(tile)).toBe(false);
    expect((await f.call("GET", `/api/admin/slider/${tile.id}`)).status).toBe(404);
    expect((await f.t.app.request(tile.image_url!)).status).toBe(404);
  });

  it("answers malformed bodies with 400", async () => {
    const broken = await f.call("POST", "/api/admin/slider", {
      body: '--x\r\nContent-Disposition: form-data; name="tile_type"\r\n\r\nlink',
      headers: { ...f.as.admin, "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(broken.status).toBe(400);
    const noBoundary = await f.call("POST", "/api/admin/slider", {
      body: "abc",
      headers: { ...f.as.admin, "Content-Type": "multipart/form-data" },
    });
    expect(noBoundary.status).toBe(400);
    const badJson = await f.call("POST", "/api/admin/slider", {
      body: "{",
      headers: { ...f.as.admin, "Content-Type": "application/json" },
    });
    expect(badJson.status).toBe(400);
  });

  it("handles naughty strings in every field without a server error", async () => {
    for (const s of naughtyStrings) {
      const r = await f.call("POST", "/api/admin/slider", {
        json: { tile_type: "track", track_url: s, redirect_url: s, image_filename: s },
      });
      expect(r.status, JSON.stringify(s)).toBeLessThan(500);
      const m = await send("POST", "/api/admin/slider", form({ tile_type: s, redirect_url: s, track_url: s }));
      expect(m.status, JSON.stringify(s)).toBeLessThan(500);
    }
  });
});
