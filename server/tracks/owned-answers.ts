import { gzipSync } from "node:zlib";
import { type Answer, contentTag } from "../http/public-answer.ts";
import { COMPRESS_JSON_MIN } from "../http/edge-middleware.ts";

/**
 * GET /api/tracks kept ready per artist (issue 15, docs/decisions/0185-artist-list-answers.md): the
 * serialised list, its gzip copy (level 1, from COMPRESS_JSON_MIN as every JSON answer) and a content
 * ETag, so the artist's pages polling their list cost no query, no serialisation and no compression.
 *
 * - `forget(userId)` is called by every write of the tracks service that changes what an artist's
 *   list shows (tracks/service.ts); this instance's next request reads the database again. A read
 *   that overlapped the write is handed to the requests that were waiting for it but not kept.
 * - Other instances sharing the database see a change when their copy is older than `ttlMs`: past
 *   that, the next request reads the database again and waits for it (credentials-bound data: no old
 *   copy is served past its time).
 * - At most `max` artists are kept; the one loaded longest ago goes first.
 */
interface OwnedAnswersOptions {
  ttlMs: number;
  max: number;
  /** Milliseconds, the app clock (tests move it). */
  now: () => number;
}

/** Artists whose list is kept at most, per instance (a 50-track list is ~10 KB plus ~2 KB gzip). */
export const OWNED_ANSWERS_MAX = 2_000;

export function ownedAnswers(load: (userId: number) => Promise<unknown>, opts: OwnedAnswersOptions) {
  const kept = new Map<number, { answer: Answer; at: number }>();
  const loading = new Map<number, Promise<Answer>>();
  /** Which load of an artist is current: a forget makes any running one stale. */
  const owner = new Map<number, object>();

  async function make(text: string, previous: Answer | undefined): Promise<Answer> {
    // The same content as before: the same bytes and ETag, nothing compressed again.
    if (previous && previous.source === text) return previous;
    const identity = new TextEncoder().encode(text);
    const gzip = text.length >= COMPRESS_JSON_MIN ? gzipSync(identity, { level: 1 }) : null;
    return { etag: await contentTag(identity), contentType: "application/json", identity, gzip, br: null, source: text };
  }

  function reload(userId: number): Promise<Answer> {
    const pending = loading.get(userId);
    if (pending) return pending;
    const previous = kept.get(userId)?.answer;
    const mine = {};
    const promise: Promise<Answer> = (async () => {
      try {
        const answer = await make(JSON.stringify(await load(userId)), previous);
        // Forgotten meanwhile (a write of this artist's tracks): not kept.
        if (owner.get(userId) === mine) {
          kept.delete(userId);
          kept.set(userId, { answer, at: opts.now() });
          if (kept.size > opts.max) kept.delete(kept.keys().next().value!);
        }
        return answer;
      } finally {
        if (owner.get(userId) === mine) {
          loading.delete(userId);
          owner.delete(userId);
        }
      }
    })();
    // Set before the load's first await returns: the checks above always see it.
    owner.set(userId, mine);
    loading.set(userId, promise);
    return promise;
  }

  return {
    /** The artist's list as an answer; reads the database when none is kept or it is older than `ttlMs`. */
    get(userId: number): Answer | Promise<Answer> {
      const entry = kept.get(userId);
      if (entry && opts.now() - entry.at <= opts.ttlMs) return entry.answer;
      return reload(userId);
    },
    /** What the artist's list shows changed on this instance: the next request reads it again. */
    forget(...userIds: (number | null | undefined)[]) {
      for (const id of userIds) {
        if (id === null || id === undefined) continue;
        kept.delete(id);
        loading.delete(id);
        owner.delete(id);
      }
    },
    /** How many artists are kept (tests). */
    get size() {
      return kept.size;
    },
  };
}

