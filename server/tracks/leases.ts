import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type NewTrack, tracks } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import type { KeptListWrites } from "./kept-lists.ts";
import { STATUS_COLUMNS, type StatusRow } from "../processing/status-keys.ts";

/**
 * The processing lease store (docs/decisions/0170, 0195): which instance works on which track, the
 * attempts counted, and the job's verdict (completed, with the duplicate check in the same
 * statement, or failed). The retries themselves are decided by the processor
 * (processing/processor.ts); these are the rows it reads and writes.
 */

/** What the processing job records when a file passes: its facts, whatever the analysis adds. */
export type CompletedFacts = Omit<Partial<NewTrack>, "id" | "status" | "error"> & { checksum: string };

/** What it records when a file fails. */
export interface FailedFacts {
  error: string;
  /** The content itself is unusable: the stored file is dropped from the row (the job deletes it). */
  discard: boolean;
  size?: number;
  checksum?: string;
}

const otherTracks = alias(tracks, "other_tracks");

/** A track the processing has still to judge: `processing`, with a stored file. */
const pendingSql = and(eq(tracks.status, "processing"), isNotNull(tracks.storage_key));
/** Nobody holds its processing lease, or the holder's lease ended by `now` (docs/decisions/0170). */
const claimableSql = (now: Date) =>
  or(isNull(tracks.lease_owner), isNull(tracks.lease_until), lte(tracks.lease_until, now));

/**
 * Marks a track completed unless it left `processing` meanwhile (deleted, or ended), `owner` no
 * longer holds its lease (another instance took it over), or another completed track of the
 * same person has the same checksum. The same bytes from another person are accepted, and
 * `duplicate_of` names the earliest completed track holding them, for staff only (issue 20,
 * decision 0206). One statement: the duplicate check and the completion cannot interleave with
 * another job's, so two copies of one file in flight cannot both end `completed`. The row as its
 * status key shows it, or undefined when nothing was written.
 */
export async function completeTrack(
  deps: LeaseDeps,
  id: number,
  facts: CompletedFacts,
  owner: string,
): Promise<StatusRow | undefined> {
  const { db, clock, afterWrite } = deps;
  const now = clock.now();
  const sameBytes = and(
    eq(otherTracks.checksum, facts.checksum),
    ne(otherTracks.id, id),
    eq(otherTracks.status, "completed"),
  );
  const done = await afterWrite((rows) => rows.map((r) => r.user_id), () =>
    db
      .update(tracks)
      .set({
        ...facts,
        duplicate_of: sql`(${db.select({ first: sql`min(${otherTracks.id})` }).from(otherTracks).where(sameBytes)})`,
        status: "completed",
        error: null,
        processed_at: now,
        updated_at: now,
        lease_owner: null,
        lease_until: null,
      })
      .where(
        and(
          eq(tracks.id, id),
          eq(tracks.status, "processing"),
          eq(tracks.lease_owner, owner),
          notExists(
            db
              .select({ one: sql`1` })
              .from(otherTracks)
              // `IS`: two tracks without an owner (deleted accounts) count as the same owner.
              .where(and(sameBytes, sql`${otherTracks.user_id} IS ${tracks.user_id}`)),
          ),
        ),
      )
      .returning(STATUS_COLUMNS));
  return done[0];
}

/**
 * Marks a track failed unless it left `processing` meanwhile or `owner` no longer holds its
 * lease. The row as its status key shows it, or undefined when nothing was written.
 */
export async function failTrack(
  deps: LeaseDeps,
  id: number,
  facts: FailedFacts,
  owner: string,
): Promise<StatusRow | undefined> {
  const { db, clock, afterWrite } = deps;
  const now = clock.now();
  const updated = await afterWrite((rows) => rows.map((r) => r.user_id), () =>
    db
      .update(tracks)
      .set({
        status: "failed",
        error: facts.error,
        ...(facts.size !== undefined ? { size: facts.size } : {}),
        ...(facts.checksum !== undefined ? { checksum: facts.checksum } : {}),
        ...(facts.discard ? { storage_key: null } : {}),
        processed_at: now,
        updated_at: now,
        lease_owner: null,
        lease_until: null,
      })
      .where(and(eq(tracks.id, id), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
      .returning(STATUS_COLUMNS));
  return updated[0];
}

/** What the lease store's writes use: the database, the clock, the kept-list rule. */
export type LeaseDeps = Pick<AppDeps, "db" | "clock"> & Pick<KeptListWrites, "afterWrite">;

export function createLeaseStore(
  ctx: Pick<AppDeps, "db" | "clock">,
  { afterWrite }: Pick<KeptListWrites, "afterWrite">,
) {
  const { db } = ctx;
  const deps: LeaseDeps = { db, clock: ctx.clock, afterWrite };

  return {
    /**
     * Takes the processing lease of a track for `owner` until `until`. One statement, so of several
     * instances asking at once exactly one gets it. Taken only while the track is `processing` with a
     * stored file and nobody else holds it (no lease, or its lease has ended on the app clock); the
     * holder may take it again (a retry). The track's state when taken, else undefined.
     */
    async claim(
      id: number,
      owner: string,
      until: Date,
    ): Promise<{ attempts: number; storage_key: string } | undefined> {
      const now = ctx.clock.now();
      const [row] = await db
        .update(tracks)
        .set({ lease_owner: owner, lease_until: until })
        .where(and(eq(tracks.id, id), pendingSql, or(claimableSql(now), eq(tracks.lease_owner, owner))))
        .returning({ attempts: tracks.attempts, storage_key: tracks.storage_key });
      return row?.storage_key ? { attempts: row.attempts, storage_key: row.storage_key } : undefined;
    },

    /**
     * Takes the lease of the next track to process, fairly across artists (docs/decisions/0195), in
     * one statement, so of several instances asking at once each gets a different track. Of each
     * artist's free tracks only the oldest is a candidate; first the artist with the fewest tracks in
     * flight (held by any instance), then the one served least recently (the latest `processed_at`
     * of their tracks; never served first), then the oldest track. So one artist's batch never
     * takes a free slot while another artist's first track waits, on any instance. The track's
     * state when taken, else undefined (nothing free).
     */
    async claimNext(
      owner: string,
      until: Date,
    ): Promise<{ id: number; attempts: number; storage_key: string } | undefined> {
      const now = ctx.clock.now().getTime();
      const free = sql`status = 'processing' AND storage_key IS NOT NULL
        AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until <= ${now})`;
      const [row] = await db.all<{ id: number; attempts: number; storage_key: string | null }>(sql`
        UPDATE ${tracks} SET lease_owner = ${owner}, lease_until = ${until.getTime()}
        WHERE id = (
          SELECT c.id FROM (SELECT min(id) AS id, user_id FROM ${tracks} WHERE ${free} GROUP BY user_id) AS c
          ORDER BY
            (SELECT count(*) FROM ${tracks} h WHERE h.user_id = c.user_id AND h.status = 'processing'
              AND h.lease_owner IS NOT NULL AND h.lease_until > ${now}),
            (SELECT max(d.processed_at) FROM ${tracks} d WHERE d.user_id = c.user_id),
            c.id
          LIMIT 1
        ) AND ${free}
        RETURNING id, attempts, storage_key`);
      return row?.storage_key
        ? { id: Number(row.id), attempts: Number(row.attempts), storage_key: row.storage_key }
        : undefined;
    },

    /**
     * Counts an attempt before the work starts, so a crash counts too. Only the lease holder counts;
     * false when `owner` no longer holds the track.
     */
    async countAttempt(id: number, attempts: number, owner: string): Promise<boolean> {
      const done = await db
        .update(tracks)
        .set({ attempts, updated_at: ctx.clock.now() })
        .where(and(eq(tracks.id, id), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
        .returning({ id: tracks.id });
      return done.length > 0;
    },

    /** Extends the leases `owner` still holds among `ids`; the ids it still holds. */
    async renewLeases(owner: string, ids: readonly number[], until: Date): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(tracks)
        .set({ lease_until: until })
        .where(and(inArray(tracks.id, [...ids]), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
        .returning({ id: tracks.id });
      return rows.map((r) => r.id);
    },

    /**
     * Gives up the leases `owner` holds (those of `ids`, or all), so any instance may take the
     * tracks at once. The number given up.
     */
    async releaseLeases(owner: string, ids?: readonly number[]): Promise<number> {
      if (ids && ids.length === 0) return 0;
      const rows = await db
        .update(tracks)
        .set({ lease_owner: null, lease_until: null })
        .where(and(eq(tracks.lease_owner, owner), ids ? inArray(tracks.id, [...ids]) : undefined))
        .returning({ id: tracks.id });
      return rows.length;
    },

    /**
     * Tracks waiting for processing that any instance may take (a stored file, no lease or an ended
     * one), oldest first, at most `limit`; and when the earliest lease still held ends (null when
     * none is held), so the sweep can look again then.
     */
    async pendingProcessing(limit: number): Promise<{ ids: number[]; nextExpiry: Date | null }> {
      const now = ctx.clock.now();
      const free = await db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(pendingSql, claimableSql(now)))
        .orderBy(asc(tracks.id))
        .limit(Math.max(0, Math.min(limit, 10_000)));
      const [held] = await db
        .select({ until: sql<number | null>`min(${tracks.lease_until})` })
        .from(tracks)
        .where(and(pendingSql, isNotNull(tracks.lease_owner), gt(tracks.lease_until, now)));
      return {
        ids: free.map((r) => r.id),
        nextExpiry: held?.until === null || held?.until === undefined ? null : new Date(Number(held.until)),
      };
    },

    complete: (id: number, facts: CompletedFacts, owner: string): Promise<StatusRow | undefined> =>
      completeTrack(deps, id, facts, owner),

    fail: (id: number, facts: FailedFacts, owner: string): Promise<StatusRow | undefined> =>
      failTrack(deps, id, facts, owner),
  };
}

export type LeaseStore = ReturnType<typeof createLeaseStore>;
