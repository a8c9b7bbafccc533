import { hasHiddenChars, hiddenCharsProblem } from "../../domain/hidden-chars.ts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENRES } from "../../domain/directions.ts";
import { users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => new Date("2025-04-21T12:00:00Z") } });
});
afterAll(() => t.close());

const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46];
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00];

function image(head: number[], size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(head);
  return bytes;
}

async function newUser(values: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.ctx.db, values);
  const { headers } = await signIn(t.ctx, user);
  return { user, headers };
}

function form(fields: Record<string, string>, avatar?: { bytes: Uint8Array; type: string; name?: string }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (avatar) fd.append("avatar", new File([avatar.bytes as BlobPart], avatar.name ?? "me.jpg", { type: avatar.type }));
  return fd;
}

async function update(headers: Record<string, string>, body: FormData) {
  const res = await t.app.request("/api/profile/update", { method: "POST", headers, body });
  return { res, body: await res.json() };
}

async function avatarFiles(): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(`${t.ctx.staticDir}/storage/avatars`)) out.push(e.name);
  } catch {
    // No avatar saved yet.
  }
  return out;
}

const fullFields = {
  first_name: "Иван",
  last_name: "Петров",
  birth_date: "1990-05-17",
  bio: "Пишу нейрофанк с 2010 года.",
  city: "Москва",
  favorite_dnb_genre: "Neurofunk",
};

describe("POST /api/profile/update", () => {
  it("requires a signed-in user", async () => {
    const res = await t.app.request("/api/profile/update", { method: "POST", body: form(fullFields) });
    expect(res.status).toBe(401);
    expect((await res.json()).success).toBe(false);
  });

  it("refuses a banned user with the ban reason", async () => {
    const { headers, user } = await newUser();
    await t.ctx.db.update(users).set({ is_banned: true, ban_reason: "Спам" }).where(eq(users.id, user.id));
    const { res, body } = await update(headers, form(fullFields));
    expect(res.status).toBe(403);
    expect(body.error).toBe("Спам");
  });

  it("saves every field and answers with the message and the user", async () => {
    const { headers, user } = await newUser();
    const { res, body } = await update(headers, form(fullFields));
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, message: "Профиль успешно обновлен" });
    expect(body.user).toMatchObject({ id: user.id, ...fullFields });
    expect(body.user).not.toHaveProperty("pending_vk_link_phone");
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject(fullFields);
  });

  it("clears values sent empty and keeps fields that were not sent", async () => {
    const { headers, user } = await newUser({ city: "Казань", first_name: "Анна", favorite_dnb_genre: "Jungle" });
    const { res } = await update(headers, form({ city: "  ", favorite_dnb_genre: "" }));
    expect(res.status).toBe(200);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.city).toBeNull();
    expect(row.favorite_dnb_genre).toBeNull();
    expect(row.first_name).toBe("Анна");
  });

  it("accepts each of the seventeen genres and refuses anything else", async () => {
    const { headers } = await newUser();
    expect(GENRES).toHaveLength(17);
    for (const genre of GENRES) {
      const { res, body } = await update(headers, form({ favorite_dnb_genre: genre }));
      expect(res.status).toBe(200);
      expect(body.user.favorite_dnb_genre).toBe(genre);
    }
    for (const bad of ["Dubstep", "neurofunk", "Neurofunk,Jungle"]) {
      const { res, body } = await update(headers, form({ favorite_dnb_genre: bad }));
      expect(res.status).toBe(400);
      expect(body).toEqual({ success: false, error: "Выберите жанр из списка" });
    }
  });

  it("allows a biography of 500 characters and refuses 501", async () => {
    const { headers } = await newUser();
    const ok = await update(headers, form({ bio: "ж".repeat(500) }));
    expect(ok.res.status).toBe(200);
    // Characters, not UTF-16 units: 500 emoji are 500 characters.
    const emoji = await update(headers, form({ bio: "🥁".repeat(500) }));
    expect(emoji.res.status).toBe(200);
    const tooLong = await update(headers, form({ bio: "ж".repeat(501) }));
    expect(tooLong.res.status).toBe(400);
    expect(tooLong.body.error).toBe("Биография не должна превышать 500 символов");
  });

  it("refuses a birth date that is not a real date or lies in the future", async () => {
    const { headers } = await newUser();
    for (const bad of ["2001-02-29", "1990-13-01", "17.05.1990", "1990-5-7", "abc"]) {
      const { res, body } = await update(headers, form({ birth_date: bad }));
      expect(res.status, bad).toBe(400);
      expect(body.error).toBe("Некорректная дата рождения");
    }
    const future = await update(headers, form({ birth_date: "2025-04-22" }));
    expect(future.res.status).toBe(400);
    expect(future.body.error).toBe("Дата рождения не может быть в будущем");
    const today = await update(headers, form({ birth_date: "2025-04-21" }));
    expect(today.res.status).toBe(200);
    const leap = await update(headers, form({ birth_date: "2000-02-29" }));
    expect(leap.body.user.birth_date).toBe("2000-02-29");
  });

  it("refuses a body that is not multipart", async () => {
    const { headers } = await newUser();
    const res = await t.app.request("/api/profile/update", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(fullFields),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).success).toBe(false);
  });

  it("saves a JPEG avatar under a generated name and serves it", async () => {
    const { headers } = await newUser();
    const bytes = image(JPEG_HEAD, 4096);
    const { res, body } = await update(headers, form({}, { bytes, type: "image/jpeg", name: "../../evil name.jpg" }));
    expect(res.status).toBe(200);
    expect(body.user.avatar).toMatch(/^\/static\/storage\/avatars\/[0-9a-f-]{36}\.jpg$/);
    const served = await t.app.request(body.user.avatar);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });

  it("names the file by its content: PNG bytes become .png", async () => {
    const { headers } = await newUser();
    const { body } = await update(headers, form({}, { bytes: image(PNG_HEAD), type: "image/png", name: "a.jpg" }));
    expect(body.user.avatar).toMatch(/\.png$/);
  });

  it("removes the previous avatar file when a new one is saved", async () => {
    const { headers } = await newUser();
    const first = await update(headers, form({}, { bytes: image(JPEG_HEAD), type: "image/jpeg" }));
    const firstName = first.body.user.avatar.split("/").pop();
    expect(await avatarFiles()).toContain(firstName);
    const second = await update(headers, form({}, { bytes: image(PNG_HEAD), type: "image/png" }));
    const secondName = second.body.user.avatar.split("/").pop();
    const files = await avatarFiles();
    expect(files).toContain(secondName);
    expect(files).not.toContain(firstName);
    expect((await t.app.request(first.body.user.avatar)).status).toBe(404);
  });

  it("keeps the avatar when the form carries an empty file input", async () => {
    const { headers } = await newUser();
    const first = await update(headers, form({}, { bytes: image(JPEG_HEAD), type: "image/jpeg" }));
    const again = await update(
      headers,
      form({ city: "Омск" }, { bytes: new Uint8Array(0), type: "application/octet-stream", name: "" }),
    );
    expect(again.res.status).toBe(200);
    expect(again.body.user.avatar).toBe(first.body.user.avatar);
  });

  it("refuses an avatar over 5 MB and leaves nothing behind", async () => {
    const { headers, user } = await newUser();
    const before = await avatarFiles();
    const big = image(JPEG_HEAD, 5 * 1024 * 1024 + 1);
    const { res, body } = await update(headers, form({ city: "Тверь" }, { bytes: big, type: "image/jpeg" }));
    expect(res.status).toBe(413);
    expect(body).toEqual({ success: false, error: "Файл слишком большой. Максимальный размер: 5 МБ" });
    expect((await avatarFiles()).sort()).toEqual(before.sort());
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.city).toBeNull();
    expect(row.avatar).toBeNull();
  });

  it("accepts an avatar of exactly 5 MB", async () => {
    const { headers } = await newUser();
    const { res } = await update(headers, form({}, { bytes: image(PNG_HEAD, 5 * 1024 * 1024), type: "image/png" }));
    expect(res.status).toBe(200);
  });

  it("checks the avatar by content and by declared type", async () => {
    const { headers, user } = await newUser();
    const before = await avatarFiles();
    const cases = [
      { bytes: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'></svg>"), type: "image/png" },
      { bytes: image([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), type: "image/gif" },
      { bytes: image([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), type: "image/jpeg" },
      { bytes: image(JPEG_HEAD), type: "image/gif" },
      { bytes: image(JPEG_HEAD), type: "text/html" },
      { bytes: new Uint8Array([0xff, 0xd8]), type: "image/jpeg" },
    ];
    for (const avatar of cases) {
      const { res, body } = await update(headers, form({}, avatar));
      expect(res.status, avatar.type).toBe(400);
      expect(body.error).toBe("Неподдерживаемый формат файла. Допустимые форматы: JPG, PNG");
    }
    expect((await avatarFiles()).sort()).toEqual(before.sort());
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.avatar).toBeNull();
  });

  it("accepts the image/jpg type some browsers send", async () => {
    const { headers } = await newUser();
    const { res } = await update(headers, form({}, { bytes: image(JPEG_HEAD), type: "image/jpg" }));
    expect(res.status).toBe(200);
  });

  it("does not keep a new avatar when a field in the same form is invalid", async () => {
    const { headers } = await newUser();
    const before = await avatarFiles();
    const { res } = await update(
      headers,
      form({ bio: "x".repeat(600) }, { bytes: image(JPEG_HEAD), type: "image/jpeg" }),
    );
    expect(res.status).toBe(400);
    expect((await avatarFiles()).sort()).toEqual(before.sort());
  });

  it("refuses over-long names and cities", async () => {
    const { headers } = await newUser();
    const { res, body } = await update(headers, form({ first_name: "я".repeat(101) }));
    expect(res.status).toBe(400);
    expect(body.error).toBe("Имя не должно превышать 100 символов");
  });

  it("never answers 500 to naughty strings in any field", async () => {
    const { headers } = await newUser();
    const naughty: string[] = JSON.parse(
      await Deno.readTextFile(new URL("../../test/fixtures/naughty/blns.json", import.meta.url)),
    );
    const fields = ["first_name", "last_name", "city", "bio", "birth_date", "favorite_dnb_genre"];
    let hidden = 0;
    for (let i = 0; i < naughty.length; i++) {
      const value = naughty[i];
      const field = fields[i % fields.length];
      const res = await t.app.request("/api/profile/update", {
        method: "POST",
        headers,
        body: form({ [field]: value }),
      });
      expect(res.status, `${field}=${JSON.stringify(value)}`).toBeLessThan(500);
      const body = await res.json();
      // Hidden characters are refused in every field before any other rule, named (issues 20, 32);
      // only the bio is multi-line. The form's encoding writes every line break as CR LF.
      const sent = value.replace(/\r\n|\r|\n/g, "\r\n");
      const kind = { multiline: field === "bio" };
      if (hasHiddenChars(sent, kind)) {
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(body).toEqual({ success: false, error: hiddenCharsProblem(sent, kind) });
        hidden++;
      } else if (res.status === 200 && ["first_name", "last_name", "city", "bio"].includes(field)) {
        // Stored as text, returned unchanged apart from trimming (no HTML is interpreted here).
        const expected = value.trim();
        expect(body.user[field]).toBe(expected === "" ? null : expected);
      }
    }
    // The list holds such strings (right-to-left overrides, zero-width spaces), so the rule was met.
    expect(hidden).toBeGreaterThan(0);
  });
});

describe("POST /api/profile/update: a body that stalls (UPLOAD_IDLE_TIMEOUT_S)", () => {
  let idle: TestApp;
  beforeAll(async () => {
    idle = await createTestApp({ env: { UPLOAD_IDLE_TIMEOUT_S: "1" } });
  });
  afterAll(() => idle.close());

  it("answers 408 when the avatar stops arriving halfway, and keeps neither the file nor the fields", async () => {
    const user = await createUser(idle.ctx.db);
    const { headers } = await signIn(idle.ctx, user);
    const encoded = new Response(form({ city: "Тверь" }, { bytes: image(JPEG_HEAD, 256 * 1024), type: "image/jpeg" }));
    const contentType = encoded.headers.get("content-type")!;
    const all = new Uint8Array(await encoded.arrayBuffer());
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent) return new Promise(() => {}); // the client goes quiet, the connection stays open
        sent = true;
        ctrl.enqueue(all.subarray(0, all.byteLength / 2));
      },
    }, { highWaterMark: 0 });
    const res = await idle.app.request("/api/profile/update", {
      method: "POST",
      headers: { ...headers, "content-type": contentType },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({
      success: false,
      error: "Загрузка прервана: данные не поступали 1 секунду. Файлы не сохранены, попробуйте ещё раз.",
    });
    const files: string[] = [];
    try {
      for await (const e of Deno.readDir(`${idle.ctx.staticDir}/storage/avatars`)) files.push(e.name);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    expect(files).toEqual([]);
    const [row] = await idle.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.city).toBeNull();
    expect(row.avatar).toBeNull();
  });
});
