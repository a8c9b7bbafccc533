import { Hono } from "hono";
import { AVATAR_MAX_BYTES, isAvatarType, PROFILE_FIELDS, PROFILE_TEXTS, profileSchema } from "../../domain/profile.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest, tooLarge, unauthorized } from "../lib/http-error.ts";
import { declareInput, parseOrThrow } from "../http/validate.ts";
import { IMAGE_HEAD_BYTES, receiveMultipart, sniffImage } from "../http/multipart.ts";
import { PUBLIC_UPLOADS_PATH, publicAddresses } from "../http/public-static.ts";
import { userView } from "../auth/user-view.ts";
import { createLinkAccountsRoutes } from "./link-accounts.ts";
import type { UserPatch } from "./service.ts";

/** Only avatars this service generated are ever deleted (a path like /static/storage/avatars/<uuid>.jpg). */
const OWN_AVATAR = /^\/static\/storage\/(avatars\/[0-9a-f-]{36}\.(?:jpg|png))$/;

const FIELD_NAMES = new Set<string>(PROFILE_FIELDS);

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
          if (!kind || !isAvatarType(part.mimeType)) throw badRequest(PROFILE_TEXTS.avatarBadType);
          return `avatars/${crypto.randomUUID()}.${kind}`;
        },
        tooLarge: () => tooLarge(PROFILE_TEXTS.avatarTooLarge),
      },
    },
    onField(name, _value, { truncated }) {
      if (!truncated || !FIELD_NAMES.has(name)) return;
      throw badRequest(name === "bio" ? PROFILE_TEXTS.bioTooLong : "Слишком длинное значение поля");
    },
    limits: { fields: 20, fieldSize: 16 * 1024, files: 1, parts: 25 },
    idleTimeoutMs: ctx.config.uploadIdleTimeoutS * 1000,
    messages: { notMultipart: "Ожидается форма multipart/form-data", aborted: "Некорректные данные формы" },
  });
  const fields: Record<string, string> = {};
  for (const name of FIELD_NAMES) if (name in form.fields) fields[name] = form.fields[name];
  return { fields, avatarKey: form.files[0]?.key ?? null };
}

/** The signed-in user's profile: /api/profile/*. */
export function createProfileRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route("/", createLinkAccountsRoutes(ctx))
    // The form's fields, declared for the tests that walk every route's input (the schema's dates
    // are today's when it runs).
    .post("/update", ctx.guards.user, declareInput("form", profileSchema("2000-01-01")), async (c) => {
      const user = c.get("user");
      const { fields, avatarKey } = await parseProfileForm(ctx, c.req.raw);
      try {
        const today = ctx.clock.now().toISOString().slice(0, 10);
        const patch: UserPatch = { ...parseOrThrow(profileSchema(today), fields) };
        for (const k of Object.keys(patch) as (keyof UserPatch)[]) if (patch[k] === undefined) delete patch[k];
        if (avatarKey) patch.avatar = PUBLIC_UPLOADS_PATH + avatarKey;
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
        return c.json({
          success: true,
          message: PROFILE_TEXTS.saved,
          user: userView(updated, publicAddresses(ctx.publicStorage)),
        });
      } catch (err) {
        if (avatarKey) await ctx.publicStorage.delete(avatarKey);
        throw err;
      }
    });
}
