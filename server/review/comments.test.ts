/**
 * Comments pinned to a moment of a track (issue 24, decisions 0231, 0232): the staff calls, who may
 * change a comment, the moderator's scope, the rules of a moment and a text, and what reaches the
 * artist: shared comments only, unsigned, in the history; no staff-only comment in any artist
 * answer; their own listening link; the Telegram message's mention.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import { telegramOutbox, type User } from "../../db/schema.ts";
import { COMMENT_TEXT_MAX_LENGTH, COMMENT_TEXTS } from "../../domain/track-comments.ts";
import { hiddenCharsMessage } from "../../domain/hidden-chars.ts";
import { COMMENTS_MENTION } from "../notifications/message-text.ts";
import { AUDIO, type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { createTrack, createUser, decisionRevision, linkSignerOf, signIn } from "../testing/factories.ts";
import { signDownloadToken } from "../tracks/downloads/token.ts";

let f: StaffFixture;
let artist: User;
let artistHeaders: Headers;
let otherArtist: Headers;
/** A moderator of label_koster who is not the fixture's moderator. */
let colleague: Headers;

const SECRET = "Только для команды: бочка клиппует";
const SHARED = "Послушайте 0:20 — здесь бас расходится с бочкой";

beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
  artist = await createUser(f.t.ctx.db, { telegram_id: "700100300" });
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
  otherArtist = (await signIn(f.t.ctx, await createUser(f.t.ctx.db))).headers;
  colleague = (await signIn(
    f.t.ctx,
    await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" }),
  )).headers;
});
afterAll(() => f.close());

/** A 60-second track of the artist in label_koster (and another direction, unless told). */
const track = (values: Parameters<typeof createTrack>[1] = {}) =>
  createTrack(f.t.ctx.db, { user_id: artist.id, directions: "label_koster", duration: 60_000, ...values });

const post = (id: number, json: unknown, headers = f.as.moderator, panel = "moderator") =>
  f.call("POST", `/api/${panel}/tracks/${id}/comments`, { headers, json });

describe("staff comments", () => {
  it("adds a comment at a moment and answers it; the staff detail carries the comments by moment", async () => {
    const t = await track();
    const late = await post(t.id, { at_s: 30, end_s: null, text: "  Здесь пусто  ", shared: false });
    expect(late.status).toBe(201);
    expect(late.body.success).toBe(true);
    const comment = late.body.comment as Record<string, unknown>;
    expect(comment).toEqual({
      id: expect.any(Number),
      at_s: 30,
      end_s: null,
      text: "Здесь пусто",
      shared: false,
      author: { id: f.moderator.id, name: expect.any(String) },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const range = await post(t.id, { at_s: 12.5, end_s: 20, text: "Отрезок", shared: true }, f.as.admin, "admin");
    expect(range.status).toBe(201);
    for (const panel of ["admin", "moderator"] as const) {
      const detail = await f.call("GET", `/api/${panel}/tracks/${t.id}`, {
        headers: panel === "admin" ? f.as.admin : f.as.moderator,
      });
      expect(detail.status).toBe(200);
      const comments = (detail.body.track as { comments: { at_s: number; end_s: number | null; shared: boolean }[] })
        .comments;
      expect(comments.map((c) => [c.at_s, c.end_s, c.shared])).toEqual([[12.5, 20, true], [30, null, false]]);
    }
  });

  it("the same comment posted twice at once (a double Enter) is saved once: the repeat answers the first", async () => {
    const t = await track();
    const json = { at_s: 7.5, end_s: null, text: "Кик тонет", shared: true };
    const [a, b] = await Promise.all([post(t.id, json), post(t.id, json)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect((a.body.comment as { id: number }).id).toBe((b.body.comment as { id: number }).id);
    expect([a.body.repeated, b.body.repeated].filter(Boolean)).toEqual([true]);
    // Another text, moment or author is another comment.
    expect((await post(t.id, { ...json, text: "Кик тонет!" })).status).toBe(201);
    expect((await post(t.id, { ...json, at_s: 8 })).status).toBe(201);
    expect((await post(t.id, json, colleague)).status).toBe(201);
    const detail = await f.call("GET", `/api/admin/tracks/${t.id}`, { headers: f.as.admin });
    const comments = (detail.body.track as { comments: { text: string }[] }).comments;
    // The pair at once made one; the other moment and the colleague one each.
    expect(comments.filter((c) => c.text === "Кик тонет")).toHaveLength(3);
    expect(comments).toHaveLength(4);
  });

  it("leaves out `shared` as staff-only", async () => {
    const t = await track();
    const r = await post(t.id, { at_s: 1, text: "Без переключателя" });
    expect(r.status).toBe(201);
    expect((r.body.comment as { shared: boolean; end_s: null }).shared).toBe(false);
  });

  it.each([
    ["a negative moment", { at_s: -1, text: "x" }, COMMENT_TEXTS.badAt],
    ["a moment as text", { at_s: "12", text: "x" }, COMMENT_TEXTS.badAt],
    ["no moment", { text: "x" }, COMMENT_TEXTS.badAt],
    ["a moment past the track's end", { at_s: 60.5, text: "x" }, COMMENT_TEXTS.beyondTrack],
    ["a range ending past the track", { at_s: 50, end_s: 61, text: "x" }, COMMENT_TEXTS.beyondTrack],
    ["a range ending before it starts", { at_s: 20, end_s: 10, text: "x" }, COMMENT_TEXTS.badEnd],
    ["a range of no length", { at_s: 20, end_s: 20, text: "x" }, COMMENT_TEXTS.badEnd],
    ["no text", { at_s: 1 }, COMMENT_TEXTS.textRequired],
    ["blank text", { at_s: 1, text: "   " }, COMMENT_TEXTS.textRequired],
    ["text too long", { at_s: 1, text: "я".repeat(COMMENT_TEXT_MAX_LENGTH + 1) }, COMMENT_TEXTS.textTooLong],
    ["hidden characters", { at_s: 1, text: "abc\u202Edef" }, hiddenCharsMessage(["\u202E"])],
    ["shared as text", { at_s: 1, text: "x", shared: "true" }, COMMENT_TEXTS.badShared],
  ])("refuses %s with 400 and says why", async (_name, json, error) => {
    const t = await track();
    const r = await post(t.id, json);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error });
    const detail = await f.call("GET", `/api/admin/tracks/${t.id}`);
    expect((detail.body.track as { comments: unknown[] }).comments).toEqual([]);
  });

  it("takes the text at its limit, the track's last moment, and any moment while the length is unknown", async () => {
    const t = await track();
    expect((await post(t.id, { at_s: 60, text: "я".repeat(COMMENT_TEXT_MAX_LENGTH) })).status).toBe(201);
    const unknown = await track({ duration: null });
    expect((await post(unknown.id, { at_s: 500, text: "Длина ещё не известна" })).status).toBe(201);
  });

  it("keeps a moderator to their categories: outside them every comment call is 404, with nothing written", async () => {
    const outside = await track({ directions: "show_neurogon" });
    const own = await post(outside.id, { at_s: 1, text: "Чужая категория" }, f.as.admin, "admin");
    const id = (own.body.comment as { id: number }).id;
    expect((await post(outside.id, { at_s: 1, text: "Мимо" })).status).toBe(404);
    const patch = await f.call("PATCH", `/api/moderator/tracks/${outside.id}/comments/${id}`, {
      headers: f.as.moderator,
      json: { text: "Подменить" },
    });
    expect(patch.status).toBe(404);
    const del = await f.call("DELETE", `/api/moderator/tracks/${outside.id}/comments/${id}`, {
      headers: f.as.moderator,
    });
    expect(del.status).toBe(404);
    expect((await f.call("GET", `/api/moderator/tracks/${outside.id}`, { headers: f.as.moderator })).status).toBe(404);
    const detail = await f.call("GET", `/api/admin/tracks/${outside.id}`);
    expect((detail.body.track as { comments: { text: string }[] }).comments.map((c) => c.text)).toEqual([
      "Чужая категория",
    ]);
    // A track with one direction in scope is in sight.
    const mixed = await track({ directions: "label_koster,show_neurogon" });
    expect((await post(mixed.id, { at_s: 1, text: "Видно" })).status).toBe(201);
  });

  it("refuses the staff calls to artists and to the signed out", async () => {
    const t = await track();
    expect((await post(t.id, { at_s: 1, text: "x" }, artistHeaders)).status).toBe(403);
    expect((await post(t.id, { at_s: 1, text: "x" }, artistHeaders, "admin")).status).toBe(403);
    expect((await post(t.id, { at_s: 1, text: "x" }, f.as.moderator, "admin")).status).toBe(403);
    expect((await post(t.id, { at_s: 1, text: "x" }, {})).status).toBe(401);
  });

  it("lets only the author and admins change or delete a comment (403 otherwise)", async () => {
    const t = await track();
    const made = await post(t.id, { at_s: 5, text: "Моё" });
    const id = (made.body.comment as { id: number }).id;
    const url = `/api/moderator/tracks/${t.id}/comments/${id}`;
    const other = await f.call("PATCH", url, { headers: colleague, json: { text: "Чужое" } });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ success: false, error: COMMENT_TEXTS.notAuthor });
    expect((await f.call("DELETE", url, { headers: colleague })).status).toBe(403);

    const mine = await f.call("PATCH", url, { headers: f.as.moderator, json: { text: "Моё, уточнено", shared: true } });
    expect(mine.status).toBe(200);
    expect(mine.body.comment).toMatchObject({ id, text: "Моё, уточнено", shared: true, at_s: 5 });

    const admin = await f.call("PATCH", `/api/admin/tracks/${t.id}/comments/${id}`, {
      json: { at_s: 7, end_s: 9 },
    });
    expect(admin.status).toBe(200);
    expect(admin.body.comment).toMatchObject({ at_s: 7, end_s: 9, author: { id: f.moderator.id } });
    // The range is checked against the stored one.
    const bad = await f.call("PATCH", url, { headers: f.as.moderator, json: { end_s: 6 } });
    expect(bad.body).toEqual({ success: false, error: COMMENT_TEXTS.badEnd });
    expect((await f.call("PATCH", url, { headers: f.as.moderator, json: {} })).body.error).toBe(
      COMMENT_TEXTS.nothingToChange,
    );
    expect((await f.call("PATCH", url, { headers: f.as.moderator, json: { at_s: 99, end_s: null } })).body.error).toBe(
      COMMENT_TEXTS.beyondTrack,
    );

    const gone = await f.call("DELETE", `/api/admin/tracks/${t.id}/comments/${id}`);
    expect(gone.status).toBe(200);
    expect((await f.call("DELETE", url, { headers: f.as.moderator })).status).toBe(404);
    // A comment id of another track is not found on this one.
    const elsewhere = await track();
    const theirs = await post(elsewhere.id, { at_s: 1, text: "Там" });
    const wrong = await f.call(
      "PATCH",
      `/api/moderator/tracks/${t.id}/comments/${(theirs.body.comment as { id: number }).id}`,
      {
        headers: f.as.moderator,
        json: { text: "x" },
      },
    );
    expect(wrong.status).toBe(404);
  });
});

describe("what the artist sees", () => {
  let t: Awaited<ReturnType<typeof track>>;
  beforeAll(async () => {
    t = await f.trackWithFile(AUDIO.amen, { user_id: artist.id, directions: "label_koster", duration: 60_000 });
    expect((await post(t.id, { at_s: 20, text: SHARED, shared: true })).status).toBe(201);
    expect((await post(t.id, { at_s: 30, text: SECRET, shared: false })).status).toBe(201);
  });

  it("the history carries the shared comments only, unsigned", async () => {
    const r = await f.call("GET", "/api/tracks/history", { headers: artistHeaders });
    expect(r.status).toBe(200);
    const item = (r.body.tracks as { id: number; comments: unknown[] }[]).find((i) => i.id === t.id)!;
    expect(item.comments).toEqual([{ at_s: 20, end_s: null, text: SHARED }]);
  });

  it("no artist answer holds a staff-only comment or a staff member's name", async () => {
    const answers = await Promise.all([
      "/api/tracks/history",
      "/api/tracks",
      `/api/status/${t.id}`,
      "/api/track_ids",
      "/api/errors",
      "/api/success",
      "/api/profile",
      `/api/tracks/${t.id}/listen`,
    ].map(async (path) => [path, await (await f.t.app.request(path, { headers: artistHeaders })).text()] as const));
    for (const [path, text] of answers) {
      expect(text, path).not.toContain(SECRET);
      expect(text, path).not.toContain(f.moderator.username);
    }
  });

  it("a comment shared later, unshared or deleted shows at once in the history", async () => {
    const made = await post(t.id, { at_s: 40, text: "Потом покажем" });
    const id = (made.body.comment as { id: number }).id;
    const url = `/api/moderator/tracks/${t.id}/comments/${id}`;
    const texts = async () =>
      ((await f.call("GET", "/api/tracks/history", { headers: artistHeaders })).body.tracks as {
        id: number;
        comments: { text: string }[];
      }[]).find((i) => i.id === t.id)!.comments.map((c) => c.text);
    expect(await texts()).toEqual([SHARED]);
    await f.call("PATCH", url, { headers: f.as.moderator, json: { shared: true } });
    expect(await texts()).toEqual([SHARED, "Потом покажем"]);
    await f.call("PATCH", url, { headers: f.as.moderator, json: { shared: false } });
    expect(await texts()).toEqual([SHARED]);
    await f.call("PATCH", url, { headers: f.as.moderator, json: { shared: true } });
    await f.call("DELETE", url, { headers: f.as.moderator });
    expect(await texts()).toEqual([SHARED]);
  });

  it("a change of a shared comment drops the artist's kept answers; a staff-only one leaves them", async () => {
    const kept = () => Promise.resolve(f.t.ctx.artist.ownedAnswer(artist.id));
    const first = await kept();
    expect(await kept()).toBe(first);
    const made = await post(t.id, { at_s: 5, text: "Пока только для команды" });
    expect(await kept()).toBe(first);
    const id = (made.body.comment as { id: number }).id;
    const url = `/api/moderator/tracks/${t.id}/comments/${id}`;
    await f.call("PATCH", url, { headers: f.as.moderator, json: { shared: true } });
    const afterShare = await kept();
    expect(afterShare).not.toBe(first);
    await f.call("PATCH", url, { headers: f.as.moderator, json: { text: "Уже видно артисту" } });
    const afterEdit = await kept();
    expect(afterEdit).not.toBe(afterShare);
    await f.call("DELETE", url, { headers: f.as.moderator });
    expect(await kept()).not.toBe(afterEdit);
  });

  it("the artist listens to their own file through their own signed link, with the stored peaks", async () => {
    const r = await f.call("GET", `/api/tracks/${t.id}/listen`, { headers: artistHeaders });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      expires_in: 1800,
      stream_url: expect.stringMatching(/^\/api\/listen\//),
    });
    const part = await f.t.app.request(r.body.stream_url as string, { headers: { Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    // Someone else's track is not there for them, nor for staff through this call.
    expect((await f.call("GET", `/api/tracks/${t.id}/listen`, { headers: otherArtist })).status).toBe(404);
    expect((await f.call("GET", `/api/tracks/${t.id}/listen`, { headers: f.as.moderator })).status).toBe(404);
    expect((await f.call("GET", `/api/tracks/${t.id}/listen`, { headers: {} })).status).toBe(401);
    const noFile = await track();
    expect((await f.call("GET", `/api/tracks/${noFile.id}/listen`, { headers: artistHeaders })).status).toBe(404);
  });

  it("an artist's link opens only their own tracks and dies with their session", async () => {
    const stranger = await createUser(f.t.ctx.db);
    const forged = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, stranger), [t.id], "own-listen");
    expect((await f.t.app.request(`/api/listen/${forged}`, { headers: { Range: "bytes=0-1" } })).status).toBe(404);
    // An artist's signature is no staff link: "listen" links need a staff signer.
    const asStaff = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, artist), [t.id], "listen");
    expect((await f.t.app.request(`/api/listen/${asStaff}`)).status).toBe(403);

    const session = await signIn(f.t.ctx, artist);
    const url = (await f.call("GET", `/api/tracks/${t.id}/listen`, { headers: session.headers })).body
      .stream_url as string;
    expect((await f.t.app.request(url, { headers: { Range: "bytes=0-1" } })).status).toBe(206);
    await f.t.app.request("/api/auth/logout", { method: "POST", headers: session.headers });
    expect((await f.t.app.request(url, { headers: { Range: "bytes=0-1" } })).status).toBe(403);
  });

  it("the decision's Telegram message mentions shared comments, and only shared ones", async () => {
    const decide = async (id: number) => {
      const revision = await decisionRevision(f.t.ctx.db, id, "label_koster");
      const r = await f.call("PUT", `/api/moderator/tracks/${id}/decisions/label_koster`, {
        headers: f.as.moderator,
        json: { status: "accepted", revision },
      });
      expect(r.status).toBe(200);
      const rows = await f.t.ctx.db.select().from(telegramOutbox).orderBy(asc(telegramOutbox.id));
      return rows.filter((o) => o.key.startsWith(`decision:${id}:`)).map((o) => o.text);
    };
    const [withShared] = await decide(t.id);
    expect(withShared).toContain(COMMENTS_MENTION);
    expect(withShared).not.toContain(SECRET);
    const secretOnly = await track();
    await post(secretOnly.id, { at_s: 3, text: SECRET });
    const [without] = await decide(secretOnly.id);
    expect(without).toBeDefined();
    expect(without).not.toContain(COMMENTS_MENTION);
  });
});
