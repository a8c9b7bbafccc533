import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { tracks } from "../../db/schema.ts";

/** An artist whose kept list a write touched; null and undefined (a guest track) are skipped. */
export type Owner = number | null | undefined;

/**
 * The one rule "every write drops the artist's kept list" (GET /api/tracks kept ready per artist,
 * docs/decisions/0185, 0210): every write of the tracks service modules runs through `afterWrite`
 * and never calls `forget` itself. The list is dropped after the write has run, also when it threw
 * (a batch refused for a concurrent change, or a failure after the commit): a list dropped once too
 * often costs one read, one kept past a write would show the artist an old state.
 */
export function keptListWrites(db: Db, lists: { forget(...userIds: Owner[]): void }) {
  /**
   * Runs `write`, then drops the lists of `owners`: given as a list (known before the write), or
   * read from the write's result (the rows it returned; nothing is dropped when it threw, as
   * nothing was written).
   */
  async function afterWrite<T>(
    owners: readonly Owner[] | ((result: T) => readonly Owner[]),
    write: () => Promise<T>,
  ): Promise<T> {
    if (typeof owners === "function") {
      const result = await write();
      lists.forget(...owners(result));
      return result;
    }
    try {
      return await write();
    } finally {
      lists.forget(...owners);
    }
  }

  /** `afterWrite` for a write that knows only the track: its owner is read after the write. */
  async function afterTrackWrite<T>(trackId: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      const [row] = await db.select({ user_id: tracks.user_id }).from(tracks).where(eq(tracks.id, trackId)).limit(1);
      // A track deleted meanwhile is in no list any more.
      if (row) lists.forget(row.user_id);
    }
  }

  return { afterWrite, afterTrackWrite };
}

export type KeptListWrites = ReturnType<typeof keptListWrites>;
