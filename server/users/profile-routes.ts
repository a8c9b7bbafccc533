import { Hono } from "hono";
import { z } from "zod";
import { GENRES } from "../../domain/directions.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { badRequest, tooLarge, unauthorized } from "../lib/http-error.ts";
import { IMAGE_HEAD_BYTES, receiveMultipart, sniffImage } from "../lib/multipart.ts";
import { userView } from "../auth/user-view.ts";
import { registerLinkAccounts } from "./link-accounts.ts";
import type { UserPatch } from "./service.ts";

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const BIO_MAX_LENGTH = 500;
export const NAME_MAX_LENGTH = 100;
export const AVATAR_TOO_LARGE = "Файл слишком большой. Максимальный размер: 5 МБ";
export const AVATAR_BAD_TYPE = "Неподдерживаемый формат файла. Допустимые форматы: JPG, PNG";
export const PROFILE_UPDATED = "Профиль успешно обновлен";

const AVATAR_MIME_TYPES = new Set(["image/jpeg", "image/png", "image/jpg"]);
const AVATAR_PUBLIC_PREFIX = "/static/storage/";
/** Only avatars this service generated are ever deleted (a path like /static/storage/avatars/<uuid>.jpg). */
const OWN_AVATAR = /^\/static\/storage\/(avatars\/[0-9a-f-]{36}\.(?:jpg|png))$/;

/** Whole calendar date, `YYYY-MM-DD`, that exists (no 31 February). */
function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Profile text never needs NUL bytes; they are dropped before trimming (a plain string match, no regex). */
const withoutNulTrimmed = (v: string) => v.replaceAll("\u0000", "").trim();

/** Text fields: trimmed; empty means "clear the value" (null). */
const text = (max: number, tooLong: string) =>
  z
    .string()
    .transform(withoutNulTrimmed)
    .pipe(z.string().max(max, tooLong))
    .transform((v) => (v === "" ? null : v));

function profileSchema(today: string) {
  return z.object({
    first_name: text(NAME_MAX_LENGTH, `Имя не должно превышать ${NAME_MAX_LENGTH} символов`).optional(),
    last_name: text(NAME_MAX_LENGTH, `Фамилия не должна превышать ${NAME_MAX_LENGTH} символов`).optional(),
    city: text(NAME_MAX_LENGTH, `Название города не должно превышать ${NAME_MAX_LENGTH} символов`).optional(),
    // Counted in characters as the user sees them (code points), the way the form's counter counts.
    bio: z
      .string()
      .transform(withoutNulTrimmed)
      .refine((v) => [...v].length <= BIO_MAX_LENGTH, `Биография не должна превышать ${BIO_MAX_LENGTH} символов`)
      .transform((v) => (v === "" ? null : v))
      .optional(),
    birth_date: z
      .string()
      .transform((v) => v.trim())
      .refine((v) => v === "" || isRealDate(v), "Некорректная дата рождения")
      .refine((v) => v === "" || v >= "1900-01-01", "Некорректная дата рождения")
      .refine((v) => v === "" || v <= today, "Дата рождения не может быть в будущем")
      .transform((v) => (v === "" ? null : v))
      .optional(),
    favorite_dnb_genre: z
      .string()
      .transform((v) => v.trim())
      .refine((v) => v === "" || (GENRES as readonly string[]).includes(v), "Выберите жанр из списка")
      .transform((v) => (v === "" ? null : v))
      .optional(),
  });
}

const FIELD_NAMES = new Set(["first_name", "last_name", "city", "bio", "birth_date", "favorite_dnb_genre"]);

interface ParsedForm {
  fields: Record<string, string>;
  /** Storage key of the avatar written during parsing. */
  avatarKey: string | null;
}

/**
 * Reads the multipart body with the shared reader: text fields into memory (small, capped), the
 * avatar straight into public storage under a generated name once its first bytes prove it is JPEG
 * or PNG. Anything written is removed again if the request fails.
 */
async function parseProfileForm(ctx: AppContext, req: Request): Promise<ParsedForm> {
  const form = await receiveMultipart(req, {
    files: {
      avatar: {
        storage: ctx.publicStorage,
        maxBytes: AVATAR_MAX_BYTES,
        headBytes: IMAGE_HEAD_BYTES,
        accept(part, head) {
          // An empty part is "no new avatar" (an empty file input).
          if (head.byteLength === 0) return null;
          const kind = sniffImage(head);
          if (!kind || !AVATAR_MIME_TYPES.has(part.mimeType.toLowerCase())) throw badRequest(AVATAR_BAD_TYPE);
          return `avatars/${crypto.randomUUID()}.${kind}`;
        },
        tooLarge: () => tooLarge(AVATAR_TOO_LARGE),
      },
    },
    onField(name, _value, { truncated }) {
      if (!truncated || !FIELD_NAMES.has(name)) return;
      throw badRequest(name === "bio" ? `Биография не должна превышать ${BIO_MAX_LENGTH} символов` : "Слишком длинное значение поля");
    },
    limits: { fields: 20, fieldSize: 16 * 1024, files: 1, parts: 25 },
    messages: { notMultipart: "Ожидается форма multipart/form-data", aborted: "Некорректные данные формы" },
  });
  const fields: Record<string, string> = {};
  for (const name of FIELD_NAMES) if (name in form.fields) fields[name] = form.fields[name];
  return { fields, avatarKey: form.files[0]?.key ?? null };
}

/** The signed-in user's profile: /api/profile/*. */
export function createProfileRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  registerLinkAccounts(app, ctx);

  app.post("/update", ctx.guards.user, async (c) => {
    const user = c.get("user");
    const { fields, avatarKey } = await parseProfileForm(ctx, c.req.raw);
    try {
      const today = ctx.clock.now().toISOString().slice(0, 10);
      const parsed = profileSchema(today).safeParse(fields);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "Некорректные данные");
      const patch: UserPatch = { ...parsed.data };
      for (const k of Object.keys(patch) as (keyof UserPatch)[]) if (patch[k] === undefined) delete patch[k];
      if (avatarKey) patch.avatar = AVATAR_PUBLIC_PREFIX + avatarKey;
      const updated = await ctx.users.update(user.id, patch);
      // Deleted by an administrator a moment ago: the session is gone with it.
      if (!updated) throw unauthorized("Недействительный или истёкший токен");
      if (avatarKey && user.avatar && user.avatar !== updated.avatar) {
        const old = OWN_AVATAR.exec(user.avatar);
        if (old) {
          await ctx.publicStorage.delete(old[1]).catch((err) =>
            ctx.logger.warn("old avatar not removed", { key: old[1], err })
          );
        }
      }
      return c.json({ success: true, message: PROFILE_UPDATED, user: userView(updated) });
    } catch (err) {
      if (avatarKey) await ctx.publicStorage.delete(avatarKey);
      throw err;
    }
  });

  return app;
}
