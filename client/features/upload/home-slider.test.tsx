// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { soundCloudPlayerUrl } from "./api.ts";
import { HomeSlider } from "./home-slider.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("home slider", () => {
  // Track tiles (an iframe) are checked end to end: the test DOM logs every iframe it will not load.
  it("renders link tiles as images with links", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/slider": () => ({
          success: true,
          sliders: [
            {
              id: 1,
              tile_type: "link",
              image_filename: "a.png",
              image_url: "/static/storage/slider/a.png",
              redirect_url: "https://vk.com/neuropunk",
              track_url: null,
            },
            {
              id: 3,
              tile_type: "link",
              image_filename: "b.png",
              image_url: "/static/storage/slider/b.png",
              redirect_url: "javascript:alert(1)",
              track_url: null,
            },
          ],
        }),
      }),
    );
    const { container } = renderPage("/", HomeSlider);
    const link = await screen.findByRole("link", { name: /vk\.com/ });
    expect(link.getAttribute("href")).toBe("https://vk.com/neuropunk");
    expect(link.getAttribute("rel")).toContain("noopener");
    expect(link.querySelector("img")!.getAttribute("src")).toBe("/static/storage/slider/a.png");
    // A tile whose link is not http(s) shows its image without a link.
    expect(container.querySelectorAll("a")).toHaveLength(1);
    expect(container.querySelectorAll("img")).toHaveLength(2);
    expect(screen.getAllByRole("button", { name: /Слайд/ })).toHaveLength(2);
  });

  it("follows a site path inside the app, and shows //host or a bare word without a link", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/slider": () => ({
          success: true,
          sliders: [
            {
              id: 1,
              tile_type: "link",
              image_filename: "a.png",
              image_url: "/static/storage/slider/a.png",
              redirect_url: "/about",
              track_url: null,
            },
            {
              id: 2,
              tile_type: "link",
              image_filename: "b.png",
              image_url: "/static/storage/slider/b.png",
              redirect_url: "//evil.example/x",
              track_url: null,
            },
            {
              id: 3,
              tile_type: "link",
              image_filename: "c.png",
              image_url: "/static/storage/slider/c.png",
              redirect_url: "about",
              track_url: null,
            },
          ],
        }),
      }),
    );
    const { container, router } = renderPage("/", HomeSlider);
    await vi.waitFor(() => expect(container.querySelectorAll("img")).toHaveLength(3));
    const links = container.querySelectorAll("a");
    expect(links).toHaveLength(1);
    const link = links[0];
    expect(link.getAttribute("href")).toBe("/about");
    expect(link.getAttribute("target")).toBeNull();
    let unloaded = false;
    globalThis.addEventListener("beforeunload", () => (unloaded = true), { once: true });
    act(() => {
      fireEvent.click(link);
    });
    await screen.findByText("other page");
    expect(router.state.location.pathname).toBe("/about");
    expect(unloaded).toBe(false);
  });

  it("builds the SoundCloud player address from the track page", () => {
    expect(soundCloudPlayerUrl("https://soundcloud.com/artist/track a&b")).toBe(
      "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fartist%2Ftrack%20a%26b",
    );
  });

  it("shows nothing when there are no tiles or they cannot be loaded", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/slider": () => Response.json({}, { status: 500 }) }));
    const { container } = renderPage("/", HomeSlider);
    await new Promise((r) => setTimeout(r, 50));
    expect(container.querySelector(".slider")).toBeNull();
  });
});
