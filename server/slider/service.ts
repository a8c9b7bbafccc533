import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { type SliderTile, sliderTiles, TILE_TYPES, type TileType } from "../../db/schema.ts";
import { isHttpUrl, isTileLink, TILE_LINK_FORMAT, TRACK_URL_FORMAT } from "../../domain/tile-link.ts";
import type { AppContext } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";
import type { StoredImage } from "../lib/image-upload.ts";

/**
 * Home-page slider tiles (spec 2 §3, §5). A link tile is an image that opens `redirect_url`; a track
 * tile is a streaming-service player for `track_url` and has no image. Images live in public storage
 * under `slider/<uuid>.<ext>` and go away with their tile or when replaced.
 */

export const SLIDER_DIR = "slider";
export const TILE_NOT_FOUND = "Плитка не найдена";
export const LINK_URL_REQUIRED = 'URL ссылки обязателен для плиток типа "Ссылка"';
export const LINK_IMAGE_REQUIRED = 'Изображение обязательно для плиток типа "Ссылка"';
export const TRACK_URL_REQUIRED = 'URL трека обязателен для плиток типа "Трек"';
export const URL_SCHEME = TRACK_URL_FORMAT;
export const LINK_URL_FORMAT = TILE_LINK_FORMAT;

export interface SliderView {
  id: number;
  tile_type: TileType;
  image_filename: string | null;
  /** Public address of the image, e.g. `/static/storage/slider/<uuid>.png`. */
  image_url: string | null;
  redirect_url: string | null;
  track_url: string | null;
}

export function sliderView(t: SliderTile): SliderView {
  return {
    id: t.id,
    tile_type: t.tile_type,
    image_filename: t.image_filename,
    image_url: t.image_filename ? `/static/storage/${SLIDER_DIR}/${t.image_filename}` : null,
    redirect_url: t.redirect_url,
    track_url: t.track_url,
  };
}

/** Empty, "null" and "undefined" (what FormData makes of a null) all mean "no value". */
const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && /^(|null|undefined)$/.test(v.trim()));

/** An optional address that `accepts`, stored trimmed; blank means none. */
const urlField = (accepts: (s: string) => boolean, message: string) =>
  z
    .union([z.string().max(2000, "URL слишком длинный"), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (blank(v)) return null;
      const s = (v as string).trim();
      if (!accepts(s)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return s;
    });

/** The tile fields from JSON or from the text parts of a multipart form. */
export const sliderInputSchema = z.object({
  tile_type: z.enum(TILE_TYPES, { message: "Тип плитки должен быть link или track" }),
  // A link may stay on this site (the seeded tiles lead to /about and /faq); a track plays from the
  // streaming service, so only an http(s) address makes sense there.
  redirect_url: urlField(isTileLink, LINK_URL_FORMAT),
  track_url: urlField(isHttpUrl, URL_SCHEME),
  /**
   * JSON only. Left out: keep the current image. Empty or null: remove it. The current name (or its
   * public address): keep it. Anything else is refused: a tile can only point at an image uploaded for it.
   */
  image_filename: z.union([z.string().max(300), z.null()]).optional(),
});

export type SliderInput = z.output<typeof sliderInputSchema>;

export function createSliderService(ctx: Pick<AppContext, "db" | "publicStorage" | "clock" | "logger">) {
  const { db } = ctx;
  const key = (filename: string) => `${SLIDER_DIR}/${filename}`;
  const removeImage = async (filename: string | null | undefined) => {
    if (!filename) return;
    await ctx.publicStorage.delete(key(filename)).catch((err) =>
      ctx.logger.warn("slider image not removed", { filename, err })
    );
  };
  const load = async (id: number) => {
    const [row] = await db.select().from(sliderTiles).where(eq(sliderTiles.id, id)).limit(1);
    if (!row) throw notFound(TILE_NOT_FOUND);
    return row;
  };

  /** The tile as it will be saved, or a 400 with the spec's text. */
  function resolve(input: SliderInput, current: SliderTile | null, upload: StoredImage | null) {
    let image: string | null = current?.image_filename ?? null;
    if (upload) image = upload.filename;
    else if (input.image_filename !== undefined) {
      const asked = blank(input.image_filename) ? null : input.image_filename!.trim().split("/").pop()!;
      if (asked !== null && asked !== current?.image_filename) throw badRequest("Неизвестное изображение");
      image = asked;
    }
    if (input.tile_type === "link") {
      if (!input.redirect_url) throw badRequest(LINK_URL_REQUIRED);
      if (!image) throw badRequest(LINK_IMAGE_REQUIRED);
      return { tile_type: input.tile_type, redirect_url: input.redirect_url, track_url: null, image_filename: image };
    }
    if (!input.track_url) throw badRequest(TRACK_URL_REQUIRED);
    return { tile_type: input.tile_type, redirect_url: null, track_url: input.track_url, image_filename: null };
  }

  return {
    async list(): Promise<SliderView[]> {
      return (await db.select().from(sliderTiles).orderBy(asc(sliderTiles.id))).map(sliderView);
    },
    async get(id: number): Promise<SliderView> {
      return sliderView(await load(id));
    },
    /** `upload` is an image already stored for this request; it is removed again when the tile is refused. */
    async create(input: SliderInput, upload: StoredImage | null): Promise<SliderView> {
      try {
        const values = resolve(input, null, upload);
        const now = ctx.clock.now();
        const [row] = await db.insert(sliderTiles).values({ ...values, created_at: now, updated_at: now }).returning();
        if (upload && values.image_filename !== upload.filename) await removeImage(upload.filename);
        return sliderView(row);
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
      if (current.image_filename && current.image_filename !== values.image_filename) {
        await removeImage(current.image_filename);
      }
      if (upload && values.image_filename !== upload.filename) await removeImage(upload.filename);
      return sliderView(row);
    },
    async remove(id: number): Promise<void> {
      const current = await load(id);
      await db.delete(sliderTiles).where(eq(sliderTiles.id, id));
      await removeImage(current.image_filename);
    },
  };
}
