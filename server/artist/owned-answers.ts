import { type KeptAnswers, keptJsonAnswers } from "../http/kept-answers.ts";
import type { Answer } from "../http/public-answer.ts";

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
 *
 * A `KeptAnswers` keyed by artist id, stale policy "wait", gzip level 1 (decision 0213).
 */
interface OwnedAnswersOptions {
  ttlMs: number;
  max: number;
  /** Milliseconds, the app clock (tests move it). */
  now: () => number;
}

/** Artists whose list is kept at most, per instance (a 50-track list is ~10 KB plus ~2 KB gzip). */
export const OWNED_ANSWERS_MAX = 2_000;

export function ownedAnswers(
  load: (userId: number) => Promise<unknown>,
  opts: OwnedAnswersOptions,
): KeptAnswers<number, Answer> {
  return keptJsonAnswers(load, {
    ttlMs: opts.ttlMs,
    max: opts.max,
    now: opts.now,
    stale: "wait",
    compression: "gzip-1",
  });
}
