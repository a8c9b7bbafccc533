// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render as renderDom, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SLIDER_TEXTS, TILE_LINK_FORMAT } from "../../../domain/slider.ts";
import { fakeFetch } from "../../components/testing/render-page.tsx";
import type { SliderTile } from "./slider-api.ts";
import { SliderForm } from "./slider-form.tsx";

const seeded: SliderTile = {
  id: 4,
  tile_type: "link",
  image_filename: "seed.png",
  image_url: "/static/storage/slider/seed.png",
  redirect_url: "/about",
  track_url: null,
};

/** The form saves through the admin feature's mutation hook, which needs a query client. */
const render = (ui: ReactElement) =>
  renderDom(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

let sent: Array<Record<string, unknown>> = [];
let fetch: ReturnType<typeof fakeFetch>;

beforeEach(() => {
  sent = [];
  fetch = fakeFetch({
    "/api/admin/slider/4": async (req) => {
      const body = await req.json();
      sent.push(body);
      return { success: true, slider: { ...seeded, ...body } };
    },
  });
  vi.stubGlobal("fetch", fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe("slider form: the link tile's URL", () => {
  it("saves a seeded tile that leads to a site path unchanged", async () => {
    const onSaved = vi.fn();
    render(<SliderForm tile={seeded} variant="page" onSaved={onSaved} onCancel={() => {}} />);
    expect((screen.getByLabelText("URL ссылки") as HTMLInputElement).value).toBe("/about");
    await save();
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent).toEqual([{ tile_type: "link", redirect_url: "/about", track_url: null, image_filename: "seed.png" }]);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("refuses javascript:, data: and //host before sending, with the server's wording", async () => {
    const onSaved = vi.fn();
    render(<SliderForm tile={seeded} variant="modal" onSaved={onSaved} onCancel={() => {}} />);
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "//evil.example/x", "about"]) {
      fireEvent.change(screen.getByLabelText("URL ссылки"), { target: { value: bad } });
      await save();
      expect(screen.getByRole("alert").textContent, bad).toBe(TILE_LINK_FORMAT);
    }
    expect(fetch.calls).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("refuses a track tile whose URL is not http(s)", async () => {
    render(<SliderForm tile={seeded} variant="modal" onSaved={() => {}} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole("radio", { name: "Трек" }));
    fireEvent.change(screen.getByLabelText("URL трека"), { target: { value: "/about" } });
    await save();
    expect(screen.getByRole("alert").textContent).toBe("URL должен начинаться с http:// или https://");
    expect(fetch.calls).toEqual([]);
  });
});

describe("slider form: the image field", () => {
  it("reads its format line as its description, and the missing-image warning too once the image is removed", () => {
    render(<SliderForm tile={seeded} variant="page" onSaved={() => {}} onCancel={() => {}} />);
    const described = () => {
      const image = screen.getByLabelText("Изображение");
      return (image.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(missing #${id})`);
    };
    expect(described()).toEqual(["JPG или PNG, не больше 2MB. Рекомендуемый размер: 400x300."]);
    fireEvent.click(screen.getByRole("button", { name: "Удалить изображение" }));
    expect(described()).toEqual([
      "JPG или PNG, не больше 2MB. Рекомендуемый размер: 400x300.",
      SLIDER_TEXTS.imageMissingWarning,
    ]);
    // A warning, not an error: the field is not marked invalid (decision 0470).
    expect(screen.getByLabelText("Изображение").getAttribute("aria-invalid")).toBeNull();
  });
});
