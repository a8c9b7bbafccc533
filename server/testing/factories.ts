import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type NewTrack, type NewUser, trackDecisions, tracks, type User, users } from "../../db/schema.ts";
import type { AudioAnalysis } from "../audio/analyse-mp3.ts";
import type { AppContext } from "../wiring.ts";

let seq = 0;

/** Creates a user; shared by tests and the seed script. */
export async function createUser(db: Db, values: Partial<NewUser> = {}): Promise<User> {
  seq++;
  const [row] = await db
    .insert(users)
    .values({ username: `user${Date.now().toString(36)}${seq}`, ...values })
    .returning();
  return row;
}

/**
 * The stored revision of a track's pair (0 while nobody has touched it): what a decision write
 * must send (docs/decisions/0199), for tests that decide without reading the track first.
 */
export async function decisionRevision(db: Db, trackId: number, direction: string): Promise<number> {
  const [row] = await db.select({ revision: trackDecisions.revision }).from(trackDecisions)
    .where(and(eq(trackDecisions.track_id, trackId), eq(trackDecisions.direction, direction))).limit(1);
  return row?.revision ?? 0;
}

export async function findUser(db: Db, username: string): Promise<User | undefined> {
  return (await db.select().from(users).where(eq(users.username, username)).limit(1))[0];
}

export async function createTrack(db: Db, values: Partial<NewTrack> = {}) {
  seq++;
  const [row] = await db
    .insert(tracks)
    .values({
      filename: `Artist ${seq} - Title ${seq}.mp3`,
      directions: "label_neuropunk",
      upload_date: new Date(),
      status: "completed",
      ...values,
    })
    .returning();
  return row;
}

/** A signed-in user and the bearer header to call the API as them. */
export async function signIn(ctx: AppContext, user: User) {
  const tokens = await ctx.tokens.issue(user.id);
  return { ...tokens, headers: { Authorization: `Bearer ${tokens.access_token}` } };
}

/** A new session of `user`, as the signer of a download or listening link. */
export async function linkSignerOf(ctx: AppContext, user: Pick<User, "id"> | number) {
  const userId = typeof user === "number" ? user : user.id;
  const { access_token } = await ctx.tokens.issue(userId);
  const found = await ctx.tokens.authenticate(access_token);
  if (!found) throw new Error("the new session was not found");
  return { userId, sessionId: found.sessionId };
}

/** A plausible audio report (a 5-minute 320 kbps DnB track) with `over` applied, for saving as a track's analysis. */
export function analysisReport(over: Partial<AudioAnalysis> = {}): AudioAnalysis {
  return {
    duration_s: 300,
    bitrate_kbps: 320,
    bitrate_mode: "cbr",
    sample_rate_hz: 44100,
    channels: 2,
    loudness_lufs: -8,
    true_peak_dbtp: -1,
    clipped_samples: 0,
    bpm: 174,
    bpm_confidence: 0.8,
    drop_s: 30,
    key: "F minor",
    camelot: "4A",
    key_confidence: 0.8,
    peaks: [],
    warnings: [],
    ...over,
  };
}

/** A stored file and its `processing` row, as an upload leaves them. */
export async function storedTrack(ctx: AppContext, data: Uint8Array, userId: number, filename = "Stored - Track.mp3") {
  const key = `${crypto.randomUUID().slice(0, 2)}/${crypto.randomUUID()}`;
  await ctx.storage.write(key, ReadableStream.from([data]));
  return await createTrack(ctx.db, {
    user_id: userId,
    filename,
    storage_key: key,
    size: data.byteLength,
    status: "processing",
  });
}
