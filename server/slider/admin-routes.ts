import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest } from "../lib/http-error.ts";
import { declareInput, parseId, parseOrThrow } from "../http/validate.ts";
import { parseImageForm, type StoredImage } from "./image-upload.ts";
import { type SliderInput, sliderInputSchema } from "../../domain/slider.ts";
import { SLIDER_DIR } from "./service.ts";

/**
 * /api/admin/slider. Create and update take multipart when a new image comes (`image` plus the tile
 * fields), else JSON (spec 2 §7).
 */
export function createAdminSliderRoutes(ctx: AppContext) {
  const service = ctx.slider;
  const inputSchema = sliderInputSchema();

  const readInput = async (c: Context<AppEnv>): Promise<{ input: SliderInput; upload: StoredImage | null }> => {
    const type = c.req.header("content-type") ?? "";
    if (type.startsWith("multipart/form-data")) {
      const form = await parseImageForm(c.req.raw, {
        storage: ctx.publicStorage,
        dir: SLIDER_DIR,
        idleTimeoutMs: ctx.config.uploadIdleTimeoutS * 1000,
      });
      try {
        // A file part replaces the image; the JSON-only `image_filename` has no meaning here.
        const { image_filename: _ignored, ...fields } = form.fields;
        return { input: parseOrThrow(inputSchema, fields), upload: form.image };
      } catch (err) {
        await form.discard();
        throw err;
      }
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw badRequest("Некорректный JSON в теле запроса");
    }
    return { input: parseOrThrow(inputSchema, body), upload: null };
  };

  return new Hono<AppEnv>()
    .get("/", async (c) => c.json({ success: true, sliders: await service.list() }))
    .post("/", declareInput("json", inputSchema), async (c) => {
      const { input, upload } = await readInput(c);
      return c.json({ success: true, slider: await service.create(input, upload) }, 201);
    })
    .get("/:id", async (c) => c.json({ success: true, slider: await service.get(parseId(c.req.param("id"))) }))
    .put("/:id", declareInput("json", inputSchema), async (c) => {
      const id = parseId(c.req.param("id"));
      const { input, upload } = await readInput(c);
      return c.json({ success: true, slider: await service.update(id, input, upload) });
    })
    .delete("/:id", async (c) => {
      await service.remove(parseId(c.req.param("id")));
      return c.json({ success: true });
    });
}
