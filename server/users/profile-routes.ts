import Busboy from "busboy";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { Readable } from "node:stream";
import { z } from "zod";
import { GENRES } from "../../domain/directions.ts";
import { type User, users } from "../../db/schema.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { ApiError, badRequest, tooLarge } from "../lib/http-error.ts";
import { TooLargeError } from "../lib/storage.ts";
import { userView } from "../auth/user-view.ts";
import { registerLinkAccounts } from "./link-accounts.ts";

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

/** The image kind told by the first bytes, whatever the browser claimed. */
function sniffImage(head: Uint8Array): "jpg" | "png" | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return "png";
  return null;
}

/** Reads at least `n` bytes (fewer at the end of the part) and leaves the stream paused. */
function readHead(stream: Readable, n: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const done = () => {
      stream.pause();
      stream.off("data", onData).off("end", done).off("error", reject);
      const out = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.byteLength;
      }
      resolve(out);
    };
    const onData = (chunk: Uint8Array) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= n) done();
    };
    stream.on("data", onData).once("end", done).once("error", reject);
  });
}

/**
 * A web stream over a busboy part, starting with the bytes already read. On cancel (size limit hit)
 * the rest of the part is drained, not destroyed: busboy stalls on a destroyed part stream.
 */
function toWebStream(stream: Readable, first: Uint8Array): ReadableStream<Uint8Array> {
  let drain = false;
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.enqueue(first);
      if (stream.readableEnded) {
        ctrl.close();
        return;
      }
      stream.on("data", (chunk: Uint8Array) => {
        if (drain) return;
        ctrl.enqueue(new Uint8Array(chunk));
        if ((ctrl.desiredSize ?? 1) <= 0) stream.pause();
      });
      stream.once("end", () => !drain && ctrl.close());
      stream.once("error", (err) => !drain && ctrl.error(err));
    },
    pull() {
      stream.resume();
    },
    cancel() {
      drain = true;
      stream.resume();
    },
  }, { highWaterMark: 4 });
}

interface ParsedForm {
  fields: Record<string, string>;
  /** Storage key of the avatar written during parsing. */
  avatarKey: string | null;
}

/**
 * Reads the multipart body as a stream (busboy): text fields into memory (small, capped), the avatar
 * straight into public storage under a generated name once its first bytes prove it is JPEG or PNG.
 * Anything written is removed again if the request fails.
 */
async function parseProfileForm(ctx: AppContext, req: Request): Promise<ParsedForm> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data") || !req.body) {
    throw badRequest("Ожидается форма multipart/form-data");
  }
  let bb: Busboy.Busboy;
  try {
    bb = Busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { fields: 20, fieldSize: 16 * 1024, files: 1, parts: 25, fieldNameSize: 100 },
    });
  } catch {
    throw badRequest("Ожидается форма multipart/form-data");
  }

  const fields: Record<string, string> = {};
  let avatarKey: string | null = null;
  const pending: Promise<void>[] = [];
  let failure: ApiError | null = null;
  const fail = (err: ApiError) => (failure ??= err);

  bb.on("field", (name, value, info) => {
    if (!FIELD_NAMES.has(name)) return;
    if (info.valueTruncated) {
      fail(badRequest(name === "bio" ? `Биография не должна превышать ${BIO_MAX_LENGTH} символов` : "Слишком длинное значение поля"));
      return;
    }
    fields[name] = value;
  });

  bb.on("file", (name, stream, info) => {
    if (name !== "avatar" || failure) {
      stream.resume();
      return;
    }
    pending.push(saveAvatar(stream, info).then((key) => {
      if (key) avatarKey = key;
    }, (err) => {
      stream.resume();
      if (err instanceof ApiError) fail(err);
      else throw err;
    }));
  });

  async function saveAvatar(stream: Readable, info: Busboy.FileInfo): Promise<string | null> {
    // Peek at the first bytes; an empty part is "no new avatar" (an empty file input).
    const head = await readHead(stream, 8);
    if (head.byteLength === 0) return null;
    const kind = sniffImage(head);
    if (!kind || !AVATAR_MIME_TYPES.has(info.mimeType.toLowerCase())) throw badRequest(AVATAR_BAD_TYPE);
    const key = `avatars/${crypto.randomUUID()}.${kind}`;
    try {
      await ctx.publicStorage.write(key, toWebStream(stream, head), { maxBytes: AVATAR_MAX_BYTES });
    } catch (err) {
      if (err instanceof TooLargeError) throw tooLarge(AVATAR_TOO_LARGE);
      throw err;
    }
    return key;
  }

  const finished = new Promise<void>((resolve, reject) => {
    bb.on("close", resolve);
    bb.on("error", reject);
  });
  try {
    Readable.fromWeb(req.body as import("node:stream/web").ReadableStream).pipe(bb);
    await finished;
  } catch {
    fail(badRequest("Некорректные данные формы"));
  }
  // A part's rejection that was not an ApiError (disk trouble) is a real server error.
  for (const r of await Promise.allSettled(pending)) if (r.status === "rejected") {
    if (avatarKey) await ctx.publicStorage.delete(avatarKey);
    throw r.reason;
  }
  if (failure) {
    if (avatarKey) await ctx.publicStorage.delete(avatarKey);
    throw failure;
  }
  return { fields, avatarKey };
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
      const patch: Partial<User> = { ...parsed.data, updated_at: ctx.clock.now() };
      for (const k of Object.keys(patch) as (keyof User)[]) if (patch[k] === undefined) delete patch[k];
      if (avatarKey) patch.avatar = AVATAR_PUBLIC_PREFIX + avatarKey;
      const [updated] = await ctx.db.update(users).set(patch).where(eq(users.id, user.id)).returning();
      ctx.tokens.forgetUser(user.id);
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
