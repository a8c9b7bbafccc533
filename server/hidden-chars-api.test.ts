import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hiddenCharsMessage } from "../domain/hidden-chars.ts";
import { INVALID_NAME_RECORD, INVALID_NAMES_MESSAGE } from "../domain/track-name.ts";
import { createTrack, decisionRevision } from "./testing/factories.ts";
import { type StaffFixture, staffFixture } from "./testing/staff-test-kit.ts";
import { allTracks, dirPart, filePart, postUpload } from "./testing/upload-helpers.ts";

/**
 * Issue 20: uploaded names and every text field staff read refuse bidi overrides and isolates,
 * zero-width characters and C1 controls, with a 400 JSON answer in Russian (decision 0205).
 */
let f: StaffFixture;
beforeAll(async () => (f = await staffFixture()));
afterAll(() => f.close());

/** One character from each edge of each refused range. */
const EDGES = ["\u0080", "\u009f", "\u200b", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069"];
const refused = (error: string) => ({ success: false, error });

describe("hidden characters through the API", () => {
  it("refuses an upload whose name shows a false name, naming it with the character written out", async () => {
    const before = (await allTracks(f.t)).length;
    const { res, body } = await postUpload(f.t, f.as.plain, [
      filePart("Evil - Track\u202e3pm.exe.mp3"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.error).toBe(`${INVALID_NAMES_MESSAGE} Evil - Track<U+202E>3pm.exe.mp3`);
    expect(body.invalid_files).toEqual([{ filename: "Evil - Track\u202e3pm.exe.mp3", error: INVALID_NAME_RECORD }]);
    for (const ch of EDGES) {
      const r = await postUpload(f.t, f.as.plain, [filePart(`Artist - Ti${ch}tle.mp3`), dirPart("label_koster")]);
      expect(r.res.status, ch.codePointAt(0)!.toString(16)).toBe(400);
      expect(r.body.error).toMatch(new RegExp(`^${INVALID_NAMES_MESSAGE}`));
    }
    expect((await allTracks(f.t)).length).toBe(before);
  });

  it("refuses them in the admin's track name and guest name", async () => {
    for (const ch of EDGES) {
      const name = await f.call("POST", "/api/admin/tracks", {
        json: { filename: `Artist - T${ch}.mp3`, guest_username: "Гость" },
      });
      expect(name.status).toBe(400);
      // The check in front of every body names the character (issue 32, decision 0305).
      expect(name.body).toEqual(refused(hiddenCharsMessage([ch])));
      const guest = await f.call("POST", "/api/admin/tracks", {
        json: { filename: "Artist - T.mp3", guest_username: `Го${ch}сть` },
      });
      expect(guest.status).toBe(400);
      expect(guest.body).toEqual(refused(hiddenCharsMessage([ch])));
    }
    expect(
      (await f.call("POST", "/api/admin/tracks", { json: { filename: "Artist - T.mp3", guest_username: "Гость" } }))
        .status,
    ).toBe(201);
  });

  it("refuses them in profile fields, the admin's user fields and the ban reason", async () => {
    for (const ch of EDGES) {
      for (const field of ["first_name", "last_name", "city", "bio"]) {
        const body = new FormData();
        body.set(field, `Иван${ch}`);
        const res = await f.t.app.request("/api/profile/update", { method: "POST", headers: f.as.plain, body });
        expect(res.status, field).toBe(400);
        expect(await res.json()).toEqual(refused(hiddenCharsMessage([ch])));
      }
      for (
        const field of ["username", "first_name", "last_name", "city", "bio", "email", "phone_number", "ban_reason"]
      ) {
        const r = await f.call("PUT", `/api/admin/users/${f.plain.id}`, { json: { [field]: `ab${ch}c@d.ru` } });
        expect(r.status, field).toBe(400);
        expect(r.body).toEqual(refused(hiddenCharsMessage([ch])));
      }
      const create = await f.call("POST", "/api/admin/users", { json: { username: `new${ch}user` } });
      expect(create.body).toEqual(refused(hiddenCharsMessage([ch])));
      const ban = await f.call("POST", `/api/admin/users/${f.plain.id}/ban`, { json: { reason: `спам${ch}` } });
      expect(ban.status).toBe(400);
      expect(ban.body).toEqual(refused(hiddenCharsMessage([ch])));
    }
  });

  it("refuses them in decision notes and messages, decline templates, FAQ entries and slider links", async () => {
    const track = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    for (const ch of EDGES) {
      for (const field of ["note", "message"]) {
        const r = await f.call("PUT", `/api/admin/tracks/${track.id}/decisions/label_koster`, {
          json: { status: "declined", [field]: `Нет${ch}` },
        });
        expect(r.status, field).toBe(400);
        expect(r.body).toEqual(refused(hiddenCharsMessage([ch])));
      }
      for (const json of [{ title: `Т${ch}`, text: "Текст" }, { title: "Титул", text: `Т${ch}` }]) {
        const r = await f.call("POST", "/api/admin/decline-templates", { json });
        expect(r.status).toBe(400);
        expect(r.body).toEqual(refused(hiddenCharsMessage([ch])));
      }
      for (const json of [{ question: `В${ch}?`, answer: "Ответ" }, { question: "Вопрос?", answer: `О${ch}` }]) {
        const r = await f.call("POST", "/api/admin/faq", { json });
        expect(r.status).toBe(400);
        expect(r.body).toEqual(refused(hiddenCharsMessage([ch])));
      }
      const tile = await f.call("POST", "/api/admin/slider", {
        json: { tile_type: "track", track_url: `https://music.example/${ch}t` },
      });
      expect(tile.status).toBe(400);
      expect(tile.body).toEqual(refused(hiddenCharsMessage([ch])));
    }
    // The same texts without them pass.
    const ok = await f.call("PUT", `/api/admin/tracks/${track.id}/decisions/label_koster`, {
      json: {
        status: "declined",
        note: "Нет",
        message: "Спасибо!\nНе подходит.",
        revision: await decisionRevision(f.t.ctx.db, track.id, "label_koster"),
      },
    });
    expect(ok.status).toBe(200);
    expect((await f.call("POST", "/api/admin/faq", { json: { question: "Вопрос?", answer: "Ответ" } })).status).toBe(
      201,
    );
  });
});
