/**
 * Issue 24, staff votes (docs/decisions/0229, 0230): one vote per (track, direction, staff member),
 * replaced by voting again and withdrawn by DELETE; the others' votes hidden from a voter until they
 * vote, shown to an admin (the decider) and to everyone once the pair is decided; moderators vote
 * only in their categories; the words validated like the other staff texts; the list's `votes`
 * filter ("needs a second ear") and `score` sort; and no artist answer ever carries a vote.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hiddenCharsMessage } from "../../domain/hidden-chars.ts";
import { VOTE_TEXTS, VOTE_WORD_MAX_LENGTH } from "../../domain/votes.ts";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
/** Two more moderators of label_koster (the fixture's moderator is a third), and one of show_neurogon. */
let second: Headers;
let secondId: number;
let third: Headers;
let neurogon: Headers;
let artist: Awaited<ReturnType<typeof createUser>>;
let artistHeaders: Headers;

beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster" });
  const db = f.t.ctx.db;
  const b = await createUser(db, {
    is_moderator: true,
    moderator_categories: "label_koster",
    first_name: "Вера",
    last_name: "Басова",
  });
  secondId = b.id;
  second = (await signIn(f.t.ctx, b)).headers;
  third = (await signIn(f.t.ctx, await createUser(db, { is_moderator: true, moderator_categories: "label_koster" })))
    .headers;
  neurogon = (await signIn(
    f.t.ctx,
    await createUser(db, { is_moderator: true, moderator_categories: "show_neurogon" }),
  )).headers;
  artist = await createUser(db);
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
});
afterAll(async () => await f.close());

interface Vote {
  direction: string;
  user_id: number;
  name: string;
  vote: number;
  word: string | null;
  voted_at: string;
}
interface Summary {
  direction: string;
  count: number;
  score: number | null;
  second_ear: boolean;
  my_vote: number | null;
}
interface StaffTrack {
  id: number;
  votes: Vote[];
  vote_summary: Summary[];
}

const panelOf = (h: Headers) => (h === f.as.admin ? "admin" : "moderator");
const newTrack = (directions = "label_koster") =>
  createTrack(f.t.ctx.db, { directions, user_id: artist.id, status: "completed" });

const vote = (id: number, direction: string, json: unknown, h: Headers) =>
  f.call("PUT", `/api/${panelOf(h)}/tracks/${id}/votes/${direction}`, { headers: h, json });

async function detail(id: number, h: Headers): Promise<StaffTrack> {
  const r = await f.call("GET", `/api/${panelOf(h)}/tracks/${id}`, { headers: h });
  expect(r.status).toBe(200);
  return r.body.track as StaffTrack;
}

async function listed(id: number, h: Headers, query = ""): Promise<StaffTrack | undefined> {
  const r = await f.call("GET", `/api/${panelOf(h)}/tracks?${query}`, { headers: h });
  expect(r.status).toBe(200);
  return (r.body.tracks as StaffTrack[]).find((t) => t.id === id);
}

describe("casting a vote", () => {
  it("answers the pair's votes with names, and voting again replaces the vote", async () => {
    const t = await newTrack();
    const first = await vote(t.id, "label_koster", { vote: 1, word: "  качает  " }, second);
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.votes).toEqual([
      expect.objectContaining({
        direction: "label_koster",
        user_id: secondId,
        name: "Вера Басова",
        vote: 1,
        word: "качает",
      }),
    ]);
    const again = await vote(t.id, "label_koster", { vote: -1 }, second);
    expect(again.status).toBe(200);
    const votes = again.body.votes as Vote[];
    expect(votes).toHaveLength(1);
    expect(votes[0]).toMatchObject({ vote: -1, word: null });
    expect(again.body.vote_summary).toEqual({
      direction: "label_koster",
      count: 1,
      score: -1,
      second_ear: true,
      my_vote: -1,
    });
  });

  it("withdraws the caller's vote with DELETE, and again is harmless", async () => {
    const t = await newTrack();
    await vote(t.id, "label_koster", { vote: 1 }, second);
    await vote(t.id, "label_koster", { vote: 0 }, third);
    const gone = await f.call("DELETE", `/api/moderator/tracks/${t.id}/votes/label_koster`, { headers: second });
    expect(gone.status).toBe(200);
    // No longer a voter on the pair: the other's vote is hidden again.
    expect(gone.body.votes).toEqual([]);
    expect(gone.body.vote_summary).toMatchObject({ count: 1, score: null, my_vote: null });
    const twice = await f.call("DELETE", `/api/moderator/tracks/${t.id}/votes/label_koster`, { headers: second });
    expect(twice.status).toBe(200);
  });

  it("refuses a bad vote, a long word and hidden characters with 400", async () => {
    const t = await newTrack();
    for (const json of [{}, { vote: 2 }, { vote: "1" }, { vote: 0.5 }, { vote: null }, { vote: true }]) {
      const r = await vote(t.id, "label_koster", json, second);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body).toEqual({ success: false, error: VOTE_TEXTS.badVote });
    }
    const long = await vote(t.id, "label_koster", { vote: 1, word: "я".repeat(VOTE_WORD_MAX_LENGTH + 1) }, second);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe(VOTE_TEXTS.wordTooLong);
    const exact = await vote(t.id, "label_koster", { vote: 1, word: "я".repeat(VOTE_WORD_MAX_LENGTH) }, second);
    expect(exact.status).toBe(200);
    // One character from each edge of each refused range (decision 0205).
    for (const c of ["\u0080", "\u009f", "\u200b", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069"]) {
      const hidden = await vote(t.id, "label_koster", { vote: 1, word: `ок${c}заб` }, second);
      expect(hidden.status).toBe(400);
      expect(hidden.body.error).toBe(hiddenCharsMessage([c]));
    }
    // An emoji joined by U+200D hides nothing and is a word like any other.
    const family = await vote(t.id, "label_koster", { vote: 1, word: "👨\u200d👩\u200d👧" }, second);
    expect(family.status).toBe(200);
    expect((family.body.votes as Vote[])[0].word).toBe("👨\u200d👩\u200d👧");
    const notText = await vote(t.id, "label_koster", { vote: 1, word: 5 }, second);
    expect(notText.status).toBe(400);
    const unknown = await vote(t.id, "nowhere", { vote: 1 }, second);
    expect(unknown.status).toBe(400);
    const broken = await f.call("PUT", `/api/moderator/tracks/${t.id}/votes/label_koster`, {
      headers: { ...second, "Content-Type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
    expect(broken.body.success).toBe(false);
    // None of the refusals was stored: the one good vote is all there is.
    expect((await detail(t.id, f.as.admin)).vote_summary[0].count).toBe(1);
  });
});

describe("who may vote", () => {
  it("a moderator votes only in their categories: 404 outside their sight, 403 outside their categories", async () => {
    const foreign = await newTrack("show_neurogon");
    const outOfSight = await vote(foreign.id, "show_neurogon", { vote: 1 }, second);
    expect(outOfSight.status).toBe(404);
    const shared = await newTrack("label_koster,show_neurogon");
    const notMine = await vote(shared.id, "show_neurogon", { vote: 1 }, second);
    expect(notMine.status).toBe(403);
    expect(notMine.body).toEqual({ success: false, error: VOTE_TEXTS.outsideCategories });
    const withdraw = await f.call("DELETE", `/api/moderator/tracks/${shared.id}/votes/show_neurogon`, {
      headers: second,
    });
    expect(withdraw.status).toBe(403);
    // A direction the track does not have.
    const absent = await vote(shared.id, "podcast_koster", { vote: 1 }, f.as.admin);
    expect(absent.status).toBe(400);
    expect(absent.body.error).toBe(REVIEW_TEXTS.notTrackDirection);
    // Nothing was stored by the refusals.
    expect((await detail(shared.id, f.as.admin)).vote_summary.every((s) => s.count === 0)).toBe(true);
  });

  it("an artist and a signed-out visitor cannot vote", async () => {
    const t = await newTrack();
    expect(
      (await f.call("PUT", `/api/moderator/tracks/${t.id}/votes/label_koster`, {
        headers: artistHeaders,
        json: { vote: 1 },
      })).status,
    ).toBe(403);
    expect(
      (await f.call("PUT", `/api/admin/tracks/${t.id}/votes/label_koster`, {
        headers: f.as.anonymous,
        json: { vote: 1 },
      })).status,
    ).toBe(401);
  });
});

describe("who sees the votes", () => {
  it("a voter sees nothing of the others' votes before voting, and all of them with names after", async () => {
    const t = await newTrack();
    await vote(t.id, "label_koster", { vote: 1, word: "бас" }, second);
    const before = await detail(t.id, third);
    expect(before.votes).toEqual([]);
    expect(before.vote_summary).toEqual([
      { direction: "label_koster", count: 1, score: null, second_ear: true, my_vote: null },
    ]);
    // The list rows carry the same.
    const row = await listed(t.id, third);
    expect(row?.votes).toEqual([]);
    expect(row?.vote_summary[0].score).toBeNull();
    // The word is nowhere in what the non-voter gets.
    expect(JSON.stringify(before)).not.toContain("бас");

    await vote(t.id, "label_koster", { vote: -1 }, third);
    const after = await detail(t.id, third);
    expect(after.votes.map((v) => [v.name, v.vote, v.word])).toEqual([["Вера Басова", 1, "бас"], [
      expect.any(String),
      -1,
      null,
    ]]);
    expect(after.vote_summary[0]).toMatchObject({ count: 2, score: 0, second_ear: true, my_vote: -1 });
    expect((await listed(t.id, third))?.votes).toHaveLength(2);
  });

  it("the admin (the decider) sees every vote without voting", async () => {
    const t = await newTrack();
    await vote(t.id, "label_koster", { vote: 1 }, second);
    const seen = await detail(t.id, f.as.admin);
    expect(seen.votes).toHaveLength(1);
    expect(seen.vote_summary[0]).toMatchObject({ count: 1, score: 1, my_vote: null });
  });

  it("once the pair is decided, everyone in scope sees its votes", async () => {
    const t = await newTrack();
    await vote(t.id, "label_koster", { vote: 1 }, second);
    expect((await detail(t.id, third)).votes).toEqual([]);
    const decided = await f.call("PUT", `/api/admin/tracks/${t.id}/decisions/label_koster`, {
      json: { status: "accepted", revision: 0 },
    });
    expect(decided.status).toBe(200);
    const seen = await detail(t.id, third);
    expect(seen.votes).toHaveLength(1);
    expect(seen.vote_summary[0]).toMatchObject({ score: 1, second_ear: false });
  });

  it("shows only the directions within the caller's scope, each pair on its own", async () => {
    const t = await newTrack("label_koster,show_neurogon");
    await vote(t.id, "show_neurogon", { vote: -1 }, neurogon);
    await vote(t.id, "label_koster", { vote: 1 }, second);
    // The label moderator voted on label_koster only: the show's pair is neither listed nor shown.
    const mine = await detail(t.id, second);
    expect(mine.vote_summary.map((s) => s.direction)).toEqual(["label_koster"]);
    expect(mine.votes.map((v) => v.direction)).toEqual(["label_koster"]);
    // The admin sees both pairs.
    const all = await detail(t.id, f.as.admin);
    expect(all.vote_summary.map((s) => [s.direction, s.score])).toEqual([["label_koster", 1], ["show_neurogon", -1]]);
  });
});

describe("the queue", () => {
  it("lists a pair with one vote, or with split votes, under votes=second_ear; not agreed or decided ones", async () => {
    const one = await newTrack();
    await vote(one.id, "label_koster", { vote: 0 }, second);
    const split = await newTrack();
    await vote(split.id, "label_koster", { vote: 1 }, second);
    await vote(split.id, "label_koster", { vote: -1 }, third);
    const agreed = await newTrack();
    await vote(agreed.id, "label_koster", { vote: 1 }, second);
    await vote(agreed.id, "label_koster", { vote: 1 }, third);
    const thinking = await newTrack();
    await vote(thinking.id, "label_koster", { vote: 1 }, second);
    await vote(thinking.id, "label_koster", { vote: 0 }, third);
    const none = await newTrack();
    const decided = await newTrack();
    await vote(decided.id, "label_koster", { vote: 1 }, second);
    await f.call("PUT", `/api/admin/tracks/${decided.id}/decisions/label_koster`, {
      json: { status: "declined", revision: 0 },
    });

    for (const h of [f.as.moderator, second, f.as.admin]) {
      const r = await f.call("GET", `/api/${panelOf(h)}/tracks?votes=second_ear`, { headers: h });
      expect(r.status).toBe(200);
      const ids = (r.body.tracks as StaffTrack[]).map((t) => t.id);
      expect(ids).toContain(one.id);
      expect(ids).toContain(split.id);
      for (const other of [agreed.id, thinking.id, none.id, decided.id]) expect(ids).not.toContain(other);
      for (const t of r.body.tracks as StaffTrack[]) expect(t.vote_summary.some((s) => s.second_ear)).toBe(true);
    }
    const nobody = await f.call("GET", "/api/moderator/tracks?votes=none", { headers: second });
    const nobodyIds = (nobody.body.tracks as StaffTrack[]).map((t) => t.id);
    expect(nobodyIds).toContain(none.id);
    expect(nobodyIds).not.toContain(one.id);
    // A moderator of another category finds none of them.
    const other = await f.call("GET", "/api/moderator/tracks?votes=second_ear", { headers: neurogon });
    expect((other.body.tracks as StaffTrack[]).map((t) => t.id)).not.toContain(split.id);
    const bad = await f.call("GET", "/api/moderator/tracks?votes=maybe", { headers: second });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it("sorts by the score the caller sees, both ways, tracks without one last", async () => {
    const db = f.t.ctx.db;
    const category = "podcast_koster";
    const voterA = await createUser(db, { is_moderator: true, moderator_categories: category });
    const voterB = await createUser(db, { is_moderator: true, moderator_categories: category });
    const a = (await signIn(f.t.ctx, voterA)).headers;
    const b = (await signIn(f.t.ctx, voterB)).headers;
    const mk = () => createTrack(db, { directions: category, user_id: artist.id, status: "completed" });
    const high = await mk();
    const mid = await mk();
    const low = await mk();
    const unvoted = await mk();
    await vote(high.id, category, { vote: 1 }, a);
    await vote(high.id, category, { vote: 1 }, b);
    await vote(mid.id, category, { vote: 0 }, a);
    await vote(low.id, category, { vote: -1 }, a);
    await vote(low.id, category, { vote: -1 }, b);
    const order = async (sort: string, h: Headers) => {
      const r = await f.call("GET", `/api/${panelOf(h)}/tracks?direction=${category}&sort=${sort}`, { headers: h });
      expect(r.status).toBe(200);
      return (r.body.tracks as StaffTrack[]).map((t) => t.id);
    };
    expect(await order("-score", f.as.admin)).toEqual([high.id, mid.id, low.id, unvoted.id]);
    expect(await order("score", f.as.admin)).toEqual([low.id, mid.id, high.id, unvoted.id]);
    // Voter B has voted on high and low only: mid's score is hidden from them, so it sorts with the unvoted.
    const seenByB = await order("-score", b);
    expect(seenByB.slice(0, 2)).toEqual([high.id, low.id]);
    expect(new Set(seenByB.slice(2))).toEqual(new Set([mid.id, unvoted.id]));
    // The positive and negative filters read the same seen score.
    const positive = await f.call("GET", `/api/moderator/tracks?direction=${category}&votes=positive`, { headers: b });
    expect((positive.body.tracks as StaffTrack[]).map((t) => t.id)).toEqual([high.id]);
    const negative = await f.call("GET", `/api/admin/tracks?direction=${category}&votes=negative`, {});
    expect((negative.body.tracks as StaffTrack[]).map((t) => t.id)).toEqual([low.id]);
  });
});

describe("the artist", () => {
  it("never gets a vote or its word from any of their calls", async () => {
    const t = await newTrack("label_koster,show_neurogon");
    await vote(t.id, "label_koster", { vote: 1, word: "секретноеслово" }, second);
    await vote(t.id, "show_neurogon", { vote: -1, word: "секретноеслово" }, f.as.admin);
    const calls = [
      "/api/tracks",
      "/api/tracks/history",
      `/api/status/${t.id}`,
      "/api/track_ids",
      "/api/errors",
      "/api/success",
    ];
    for (const path of calls) {
      const r = await f.call("GET", path, { headers: artistHeaders });
      expect(r.status, path).toBeLessThan(500);
      const text = await r.res.text();
      expect(text, path).not.toContain("секретноеслово");
      expect(text, path).not.toMatch(/"votes?"|vote_summary|"score"/);
    }
    // The history does hold the track: what is missing is the votes, not the track.
    const history = await f.call("GET", "/api/tracks/history", { headers: artistHeaders });
    expect(JSON.stringify(history.body)).toContain(String(t.filename.slice(0, 6)));
  });
});
