/**
 * Issue 24, assignment (docs/decisions/0233): who may assign what to whom (a moderator never outside
 * their categories: 404 for a track they cannot see, 403 for a direction of theirs they do not
 * cover), the assignee's categories must cover the pairs (400), «Мне назначено» as the list's
 * `assigned=me`, the selection, the direction's new queue split evenly, the list of colleagues one
 * may assign, and the assignment cleared by a decision (per pair and whole track) and back on undo.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../db/schema.ts";
import { ASSIGN_TEXTS } from "../../domain/assignment.ts";
import { DIRECTION_LABELS } from "../../domain/directions.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
/** Moderators: of label_koster and podcast_koster; of show_neurogon; of radio_k_profit (two). */
let kosterBoth: User;
let kosterBothH: Headers;
let neurogon: User;
let neurogonH: Headers;
let radioA: User;
let radioB: User;
let radioAH: Headers;
let banned: User;

beforeAll(async () => {
  // The fixture's moderator: label_koster only.
  f = await staffFixture({ moderatorCategories: "label_koster" });
  const db = f.t.ctx.db;
  kosterBoth = await createUser(db, { is_moderator: true, moderator_categories: "label_koster,podcast_koster" });
  neurogon = await createUser(db, { is_moderator: true, moderator_categories: "show_neurogon" });
  radioA = await createUser(db, { is_moderator: true, moderator_categories: "radio_k_profit" });
  radioB = await createUser(db, { is_moderator: true, moderator_categories: "radio_k_profit,label_koster" });
  banned = await createUser(db, { is_moderator: true, moderator_categories: "label_koster", is_banned: true });
  kosterBothH = (await signIn(f.t.ctx, kosterBoth)).headers;
  neurogonH = (await signIn(f.t.ctx, neurogon)).headers;
  radioAH = (await signIn(f.t.ctx, radioA)).headers;
});
afterAll(() => f.close());

const newTrack = (directions: string) => createTrack(f.t.ctx.db, { directions, status: "completed" });
const panelOf = (h: Headers) => (h === f.as.admin ? "admin" : "moderator");

const assign = (id: number, json: unknown, headers: Headers = f.as.admin) =>
  f.call("PUT", `/api/${panelOf(headers)}/tracks/${id}/assignee`, { headers, json });

const trackOf = async (id: number, headers: Headers = f.as.admin) =>
  (await f.call("GET", `/api/${panelOf(headers)}/tracks/${id}`, { headers })).body.track as {
    assignee: { id: number; name: string } | null;
    decisions: { direction: string; revision: number }[];
  };

const assignedToMe = async (headers: Headers) => {
  const r = await f.call("GET", `/api/${panelOf(headers)}/tracks?assigned=me`, { headers });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.tracks as { id: number }[]).map((t) => t.id);
};

describe("PUT …/tracks/{id}/assignee", () => {
  it("an admin assigns a colleague covering the track; the track carries the assignee; null clears", async () => {
    const tr = await newTrack("label_koster,podcast_koster");
    const r = await assign(tr.id, { user_id: kosterBoth.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ success: true, assignee: { id: kosterBoth.id, name: kosterBoth.username } });
    expect((await trackOf(tr.id)).assignee).toEqual({ id: kosterBoth.id, name: kosterBoth.username });
    // The list's rows carry it too, and «Мне назначено» is the assignee's view.
    const list = await f.call("GET", `/api/admin/tracks?filename=${encodeURIComponent(tr.filename)}`);
    expect((list.body.tracks as { assignee: unknown }[])[0].assignee).toEqual({
      id: kosterBoth.id,
      name: kosterBoth.username,
    });
    expect(await assignedToMe(kosterBothH)).toContain(tr.id);
    expect(await assignedToMe(f.as.moderator)).not.toContain(tr.id);

    const cleared = await assign(tr.id, { user_id: null });
    expect(cleared.body).toEqual({ success: true, assignee: null });
    expect((await trackOf(tr.id)).assignee).toBeNull();
    expect(await assignedToMe(kosterBothH)).not.toContain(tr.id);
  });

  it("the assignee's categories must cover every pair assigned (400); one direction may be named", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    const r = await assign(tr.id, { user_id: f.moderator.id });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(ASSIGN_TEXTS.notCovering(f.moderator.username, DIRECTION_LABELS.show_neurogon));
    expect((await trackOf(tr.id)).assignee).toBeNull();
    // Only the label pair: the koster moderator covers it.
    const one = await assign(tr.id, { user_id: f.moderator.id, direction: "label_koster" });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    // The neurogon moderator sees the track, but not its label pair's assignee (outside their categories).
    expect((await trackOf(tr.id, neurogonH)).assignee).toBeNull();
    expect((await trackOf(tr.id, f.as.moderator)).assignee?.id).toBe(f.moderator.id);
  });

  it("a moderator assigns only within their categories: 404 for a track outside them, 403 for a direction", async () => {
    const outside = await newTrack("label_neuropunk");
    const hidden = await assign(outside.id, { user_id: f.moderator.id }, f.as.moderator);
    expect(hidden.status).toBe(404);
    expect(hidden.body.success).toBe(false);

    const shared = await newTrack("label_koster,show_neurogon");
    const other = await assign(shared.id, { user_id: neurogon.id, direction: "show_neurogon" }, f.as.moderator);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe(ASSIGN_TEXTS.outsideCategories);

    // Their own pair only: the neurogon pair stays free, whatever the koster moderator assigns.
    const mine = await assign(shared.id, { user_id: kosterBoth.id }, f.as.moderator);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect((await trackOf(shared.id, neurogonH)).assignee).toBeNull();
    expect(await assignedToMe(kosterBothH)).toContain(shared.id);
  });

  it("only a staff member who exists and is not banned may be assigned; bad input is 400", async () => {
    const tr = await newTrack("label_koster");
    for (
      const [json, error] of [
        [{ user_id: f.plain.id }, ASSIGN_TEXTS.notStaff],
        [{ user_id: banned.id }, ASSIGN_TEXTS.notStaff],
        [{ user_id: 99_999_999 }, ASSIGN_TEXTS.userNotFound],
        [{ user_id: "abc" }, ASSIGN_TEXTS.badUserId],
        [{}, ASSIGN_TEXTS.badUserId],
        [{ user_id: f.admin.id, direction: "nowhere" }, ASSIGN_TEXTS.unknownDirection],
        [{ user_id: f.admin.id, direction: "show_neurogon" }, ASSIGN_TEXTS.notTrackDirection],
      ] as const
    ) {
      const r = await assign(tr.id, json);
      expect([r.status, r.body.error], JSON.stringify(json)).toEqual([400, error]);
    }
    // An admin covers everything.
    expect((await assign(tr.id, { user_id: f.admin.id })).status).toBe(200);
  });
});

describe("a decision clears the assignment", () => {
  const revisionsOf = async (id: number) =>
    Object.fromEntries((await trackOf(id)).decisions.map((d) => [d.direction, d.revision]));

  it("the per-pair call clears its pair; a note alone does not", async () => {
    const tr = await newTrack("label_koster");
    await assign(tr.id, { user_id: f.moderator.id });
    const note = await f.call("PUT", `/api/moderator/tracks/${tr.id}/decisions/label_koster`, {
      headers: f.as.moderator,
      json: { note: "послушать ещё", revision: 0 },
    });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    expect((await trackOf(tr.id)).assignee?.id).toBe(f.moderator.id);
    const r = await f.call("PUT", `/api/moderator/tracks/${tr.id}/decisions/label_koster`, {
      headers: f.as.moderator,
      json: { status: "declined", revision: 1 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await trackOf(tr.id)).assignee).toBeNull();
    expect(await assignedToMe(f.as.moderator)).not.toContain(tr.id);
    // A decided pair has nothing to assign.
    const again = await assign(tr.id, { user_id: f.moderator.id });
    expect([again.status, again.body.error]).toEqual([400, ASSIGN_TEXTS.nothingToAssign]);
  });

  it("the whole-track call clears the pairs it decided; its undo brings them back", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    await assign(tr.id, { user_id: f.moderator.id, direction: "label_koster" });
    await assign(tr.id, { user_id: neurogon.id, direction: "show_neurogon" });
    // The koster moderator decides their part: only the label pair's assignment ends.
    const r = await f.call("PUT", `/api/moderator/tracks/${tr.id}/decision`, {
      headers: f.as.moderator,
      json: { status: "accepted", revisions: { label_koster: 0 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await assignedToMe(f.as.moderator)).not.toContain(tr.id);
    expect(await assignedToMe(neurogonH)).toContain(tr.id);
    expect((await trackOf(tr.id)).assignee?.id).toBe(neurogon.id);

    const undone = await f.call("POST", `/api/moderator/tracks/${tr.id}/decision/undo`, {
      headers: f.as.moderator,
      json: {},
    });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(await assignedToMe(f.as.moderator)).toContain(tr.id);

    // An admin's decision of the whole track clears both.
    const all = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      json: { status: "shortlisted", revisions: await revisionsOf(tr.id) },
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(await assignedToMe(f.as.moderator)).not.toContain(tr.id);
    expect(await assignedToMe(neurogonH)).not.toContain(tr.id);
    // A shortlisted pair still wants a final word: it may be assigned again.
    expect((await assign(tr.id, { user_id: f.moderator.id, direction: "label_koster" })).status).toBe(200);
  });
});

describe("PUT …/tracks/assignee: a selection", () => {
  it("assigns every track, or none when one is outside the caller's sight (404)", async () => {
    const a = await newTrack("label_koster");
    const b = await newTrack("label_koster,podcast_koster");
    const outside = await newTrack("label_neuropunk");
    const refused = await f.call("PUT", "/api/moderator/tracks/assignee", {
      headers: f.as.moderator,
      json: { track_ids: [a.id, outside.id], user_id: kosterBoth.id },
    });
    expect(refused.status).toBe(404);
    expect((await trackOf(a.id)).assignee).toBeNull();

    const r = await f.call("PUT", "/api/moderator/tracks/assignee", {
      headers: f.as.moderator,
      json: { track_ids: [a.id, b.id, a.id], user_id: kosterBoth.id },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ success: true, assignee: { id: kosterBoth.id, name: kosterBoth.username }, tracks: 2 });
    const mine = await assignedToMe(kosterBothH);
    expect(mine).toContain(a.id);
    expect(mine).toContain(b.id);
    // The koster moderator's assignment covered only label_koster of b: its podcast pair is free.
    const podcastOnly = await f.call("PUT", `/api/admin/tracks/${b.id}/assignee`, {
      json: { user_id: f.admin.id, direction: "podcast_koster" },
    });
    expect(podcastOnly.status).toBe(200);
    expect((await trackOf(b.id, f.as.moderator)).assignee?.id).toBe(kosterBoth.id);

    const none = await f.call("PUT", "/api/admin/tracks/assignee", { json: { track_ids: [], user_id: null } });
    expect([none.status, none.body.error]).toEqual([400, ASSIGN_TEXTS.noTracks]);
  });
});

describe("POST …/tracks/assign-split: a direction's new queue split evenly", () => {
  it("deals the new, unassigned pairs oldest first; listened, assigned and failed ones stay", async () => {
    const db = f.t.ctx.db;
    const base = Date.now() - 10 * 86_400_000;
    const fresh = [];
    for (let i = 0; i < 5; i++) {
      fresh.push(
        await createTrack(db, { directions: "radio_k_profit", status: "completed", upload_date: new Date(base + i) }),
      );
    }
    const taken = await newTrack("radio_k_profit");
    await assign(taken.id, { user_id: radioA.id });
    const failed = await createTrack(db, { directions: "radio_k_profit", status: "failed" });
    const heard = await newTrack("radio_k_profit");
    await f.call("PUT", `/api/admin/tracks/${heard.id}/decisions/radio_k_profit`, {
      json: { status: "listened", revision: 0 },
    });

    const r = await f.call("POST", "/api/moderator/tracks/assign-split", {
      headers: radioAH,
      json: { direction: "radio_k_profit", user_ids: [radioA.id, radioB.id] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({
      success: true,
      direction: "radio_k_profit",
      total: 5,
      assigned: [
        { user: { id: radioA.id, name: radioA.username }, count: 3 },
        { user: { id: radioB.id, name: radioB.username }, count: 2 },
      ],
    });
    // In turn, oldest first.
    expect((await Promise.all(fresh.map((t) => trackOf(t.id)))).map((t) => t.assignee?.id)).toEqual([
      radioA.id,
      radioB.id,
      radioA.id,
      radioB.id,
      radioA.id,
    ]);
    expect((await trackOf(taken.id)).assignee?.id).toBe(radioA.id);
    expect((await trackOf(heard.id)).assignee).toBeNull();
    expect((await trackOf(failed.id)).assignee).toBeNull();
    // Nothing new is left unassigned.
    const again = await f.call("POST", "/api/admin/tracks/assign-split", {
      json: { direction: "radio_k_profit", user_ids: [radioB.id] },
    });
    expect(again.body).toMatchObject({ total: 0, assigned: [{ count: 0 }] });
  });

  it("refuses a direction outside the caller's categories (403) and a colleague not covering it (400)", async () => {
    const outside = await f.call("POST", "/api/moderator/tracks/assign-split", {
      headers: f.as.moderator,
      json: { direction: "radio_k_profit", user_ids: [radioA.id] },
    });
    expect([outside.status, outside.body.error]).toEqual([403, ASSIGN_TEXTS.outsideCategories]);
    const notCovering = await f.call("POST", "/api/admin/tracks/assign-split", {
      json: { direction: "radio_k_profit", user_ids: [radioA.id, f.moderator.id] },
    });
    expect(notCovering.status).toBe(400);
    expect(notCovering.body.error).toMatch(/^Категории сотрудника .+ не покрывают направление «.+»$/);
    const nobody = await f.call("POST", "/api/admin/tracks/assign-split", {
      json: { direction: "radio_k_profit", user_ids: [] },
    });
    expect([nobody.status, nobody.body.error]).toEqual([400, ASSIGN_TEXTS.noPeople]);
  });
});

describe("GET …/tracks/assignable-staff", () => {
  it("lists the colleagues sharing the caller's categories, trimmed to them; per track and per direction", async () => {
    const r = await f.call("GET", "/api/moderator/tracks/assignable-staff", { headers: f.as.moderator });
    expect(r.status).toBe(200);
    const staff = r.body.staff as { id: number; directions: string[] }[];
    const byId = new Map(staff.map((s) => [s.id, s.directions]));
    expect(byId.get(kosterBoth.id)).toEqual(["label_koster"]);
    expect(byId.get(f.admin.id)).toEqual(["label_koster"]);
    expect(byId.get(f.moderator.id)).toEqual(["label_koster"]);
    expect(byId.has(neurogon.id)).toBe(false);
    expect(byId.has(banned.id)).toBe(false);
    expect(byId.has(f.plain.id)).toBe(false);

    const tr = await newTrack("label_koster,podcast_koster");
    const forTrack = await f.call("GET", `/api/admin/tracks/assignable-staff?track_id=${tr.id}`);
    const ids = (forTrack.body.staff as { id: number }[]).map((s) => s.id);
    expect(ids).toContain(kosterBoth.id);
    expect(ids).toContain(f.admin.id);
    expect(ids).not.toContain(f.moderator.id);

    const outside = await newTrack("label_neuropunk");
    const hidden = await f.call("GET", `/api/moderator/tracks/assignable-staff?track_id=${outside.id}`, {
      headers: f.as.moderator,
    });
    expect(hidden.status).toBe(404);
    const otherDirection = await f.call("GET", "/api/moderator/tracks/assignable-staff?direction=show_neurogon", {
      headers: f.as.moderator,
    });
    expect(otherDirection.status).toBe(403);
  });

  it("the list's assigned filter accepts only `me`", async () => {
    const r = await f.call("GET", "/api/admin/tracks?assigned=someone");
    expect([r.status, r.body.error]).toEqual([400, ASSIGN_TEXTS.badAssignedFilter]);
  });
});
