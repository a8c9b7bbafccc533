import { z } from "zod";
import { hiddenCharsProblem } from "./hidden-chars.ts";
import { isHttpUrl, isTileLink } from "./tile-link.ts";

/** A link tile's address that is not one (tile-link.ts). */
export const TILE_LINK_FORMAT = "URL должен начинаться с http://, https:// или / (страница этого сайта)";
/** A track tile plays from the streaming service, so its address is always http(s). */
export const TRACK_URL_FORMAT = "URL должен начинаться с http:// или https://";

/**
 * Home-page slider tiles (spec 2 §3, §5): a link tile is an image that opens `redirect_url`; a track
 * tile is a streaming-service player for `track_url` and has no image. The admin form and
 * `/api/admin/slider` check a tile with these rules and say what is wrong with these texts.
 */

export const TILE_TYPES = ["link", "track"] as const;
export type TileType = (typeof TILE_TYPES)[number];

export const SLIDER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const SLIDER_URL_MAX_LENGTH = 2000;

export const SLIDER_TEXTS = {
  notFound: "Плитка не найдена",
  badTileType: "Тип плитки должен быть link или track",
  linkUrlRequired: 'URL ссылки обязателен для плиток типа "Ссылка"',
  trackUrlRequired: 'URL трека обязателен для плиток типа "Трек"',
  imageRequired: 'Изображение обязательно для плиток типа "Ссылка"',
  imageMissingWarning: "Для плитки-ссылки необходимо выбрать изображение",
  unknownImage: "Неизвестное изображение",
  urlTooLong: "URL слишком длинный",
  linkUrlFormat: TILE_LINK_FORMAT,
  trackUrlFormat: TRACK_URL_FORMAT,
  /** The server's answer and the modal's wording (spec 2 §5). */
  imageBadFormat: "Неподдерживаемый формат изображения. Используйте JPG или PNG.",
  /** The edit page words it differently (spec 2 §5). */
  imageBadFormatPage: "Неподдерживаемый формат файла. Используйте JPG или PNG.",
  imageTooLarge: "Файл слишком большой. Максимальный размер: 2MB.",
} as const;

/** What a tile needs, in the order the form reports it; null when it may be saved. */
export function tileProblem(tile: {
  tile_type: TileType;
  redirect_url: string | null | undefined;
  track_url: string | null | undefined;
  has_image: boolean;
}): string | null {
  const redirect = tile.redirect_url?.trim() ?? "";
  const track = tile.track_url?.trim() ?? "";
  if (tile.tile_type === "link") {
    if (!redirect) return SLIDER_TEXTS.linkUrlRequired;
    if (!isTileLink(redirect)) return SLIDER_TEXTS.linkUrlFormat;
    if (!tile.has_image) return SLIDER_TEXTS.imageRequired;
    return null;
  }
  if (!track) return SLIDER_TEXTS.trackUrlRequired;
  if (!isHttpUrl(track)) return SLIDER_TEXTS.trackUrlFormat;
  return null;
}

/** Empty, "null" and "undefined" (what FormData makes of a null) all mean "no value". */
export const blank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === "string" && /^(|null|undefined)$/.test(v.trim()));

/** An optional address that `accepts`, stored trimmed; blank means none. */
const urlField = (accepts: (s: string) => boolean, message: string) =>
  z
    .union([z.string().max(SLIDER_URL_MAX_LENGTH, SLIDER_TEXTS.urlTooLong), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (blank(v)) return null;
      const s = (v as string).trim();
      const hidden = hiddenCharsProblem(s);
      if (hidden) {
        ctx.addIssue({ code: "custom", message: hidden });
        return z.NEVER;
      }
      if (!accepts(s)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return s;
    });

/**
 * The tile fields from JSON or from the text parts of a multipart form. Whether a tile has what its
 * type needs depends on its stored image too, so the server checks that afterwards (`tileProblem`).
 * A function, so that importing the rules above does not bring zod into a client bundle.
 */
export function sliderInputSchema() {
  return z.object({
    tile_type: z.enum(TILE_TYPES, { message: SLIDER_TEXTS.badTileType }),
    // A link may stay on this site (the seeded tiles lead to /about and /faq); a track plays from the
    // streaming service, so only an http(s) address makes sense there.
    redirect_url: urlField(isTileLink, SLIDER_TEXTS.linkUrlFormat),
    track_url: urlField(isHttpUrl, SLIDER_TEXTS.trackUrlFormat),
    /**
     * JSON only. Left out: keep the current image. Empty or null: remove it. The current name (or its
     * public address): keep it. Anything else is refused: a tile can only point at an image uploaded for it.
     */
    image_filename: z.union([z.string().max(300), z.null()]).optional(),
  });
}

export type SliderInput = z.output<ReturnType<typeof sliderInputSchema>>;
