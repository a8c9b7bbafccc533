import { asc, eq } from "drizzle-orm";
import { type SliderTile, sliderTiles } from "../../db/schema.ts";
import { blank, SLIDER_TEXTS, type SliderInput, tileProblem, type TileType } from "../../domain/slider.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";
import { sharedAnswer } from "../http/kept-answers.ts";
import type { StoredImage } from "./image-upload.ts";
import { PUBLIC_UPLOADS_PATH, type PublicAddress, publicAddresses } from "../http/public-static.ts";

/**
 * Home-page slider tiles (spec 2 §3, §5); what a tile needs is in domain/slider.ts, shared with the
 * admin form. Images live in public storage under `slider/<uuid>.<ext>` and go away with their tile
 * or when replaced.
 */

export const SLIDER_DIR = "slider";

export interface SliderView {
  id: number;
  tile_type: TileType;
  image_filename: string | null;
  /** Public address of the image, e.g. `/static/storage/slider/<uuid>.png`. */
  image_url: string | null;
  redirect_url: string | null;
  track_url: string | null;
}

export function sliderView(t: SliderTile, address: PublicAddress = (stored) => stored): SliderView {
  return {
    id: t.id,
    tile_type: t.tile_type,
    image_filename: t.image_filename,
    // The bucket's public address instead when S3_PUBLIC_URL is set (decision 0113).
    image_url: t.image_filename ? address(`${PUBLIC_UPLOADS_PATH}${SLIDER_DIR}/${t.image_filename}`) : null,
    redirect_url: t.redirect_url,
    track_url: t.track_url,
  };
}

/** GET /api/slider's answer, `{ success: true, sliders }`, kept ready; every write below drops it. */
const publicList = sharedAnswer(
  "slider",
  async (ctx: Pick<AppDeps, "db" | "clock" | "logger"> & { slider: { list(): Promise<SliderView[]> } }) => ({
    success: true as const,
    sliders: await ctx.slider.list(),
  }),
);
export const publicSliderAnswer = publicList.get;

export function createSliderService(ctx: Pick<AppDeps, "db" | "publicStorage" | "clock" | "logger">) {
  const { db } = ctx;
  const address = publicAddresses(ctx.publicStorage);
  const view = (t: SliderTile) => sliderView(t, address);
  const changed = () => publicList.invalidate(db);
  const key = (filename: string) => `${SLIDER_DIR}/${filename}`;
  const removeImage = async (filename: string | null | undefined) => {
    if (!filename) return;
    await ctx.publicStorage.delete(key(filename)).catch((err) =>
      ctx.logger.warn("slider image not removed", { filename, err })
    );
  };
  const load = async (id: number) => {
    const [row] = await db.select().from(sliderTiles).where(eq(sliderTiles.id, id)).limit(1);
    if (!row) throw notFound(SLIDER_TEXTS.notFound);
    return row;
  };

  /** The tile as it will be saved, or a 400 with the spec's text. */
  function resolve(input: SliderInput, current: SliderTile | null, upload: StoredImage | null) {
    let image: string | null = current?.image_filename ?? null;
    if (upload) image = upload.filename;
    else if (input.image_filename !== undefined) {
      const asked = blank(input.image_filename) ? null : input.image_filename!.trim().split("/").pop()!;
      if (asked !== null && asked !== current?.image_filename) throw badRequest(SLIDER_TEXTS.unknownImage);
      image = asked;
    }
    const refused = tileProblem({ ...input, has_image: image !== null });
    if (refused) throw badRequest(refused);
    if (input.tile_type === "link") {
      return {
        tile_type: input.tile_type,
        redirect_url: input.redirect_url ?? null,
        track_url: null,
        image_filename: image,
      };
    }
    return { tile_type: input.tile_type, redirect_url: null, track_url: input.track_url ?? null, image_filename: null };
  }

  return {
    async list(): Promise<SliderView[]> {
      return (await db.select().from(sliderTiles).orderBy(asc(sliderTiles.id))).map(view);
    },
    async get(id: number): Promise<SliderView> {
      return view(await load(id));
    },
    /** `upload` is an image already stored for this request; it is removed again when the tile is refused. */
    async create(input: SliderInput, upload: StoredImage | null): Promise<SliderView> {
      try {
        const values = resolve(input, null, upload);
        const now = ctx.clock.now();
        const [row] = await db.insert(sliderTiles).values({ ...values, created_at: now, updated_at: now }).returning();
        changed();
        if (upload && values.image_filename !== upload.filename) await removeImage(upload.filename);
        return view(row);
      } catch (err) {
        await removeImage(upload?.filename);
        throw err;
      }
    },
    async update(id: number, input: SliderInput, upload: StoredImage | null): Promise<SliderView> {
      let current: SliderTile;
      let values: ReturnType<typeof resolve>;
      try {
        current = await load(id);
        values = resolve(input, current, upload);
      } catch (err) {
        await removeImage(upload?.filename);
        throw err;
      }
      const [row] = await db
        .update(sliderTiles)
        .set({ ...values, updated_at: ctx.clock.now() })
        .where(eq(sliderTiles.id, id))
        .returning();
      changed();
      if (current.image_filename && current.image_filename !== values.image_filename) {
        await removeImage(current.image_filename);
      }
      if (upload && values.image_filename !== upload.filename) await removeImage(upload.filename);
      return view(row);
    },
    async remove(id: number): Promise<void> {
      const current = await load(id);
      await db.delete(sliderTiles).where(eq(sliderTiles.id, id));
      changed();
      await removeImage(current.image_filename);
    },
  };
}

export type SliderService = ReturnType<typeof createSliderService>;
