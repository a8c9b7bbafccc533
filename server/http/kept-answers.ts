import { gzipSync } from "node:zlib";
import { COMPRESS_JSON_MIN } from "./edge-middleware.ts";
import { type Answer, contentTag, makeAnswer, SHARED_ANSWER_TTL_MS } from "./public-answer.ts";

/**
 * One keyed cache for the answers the server keeps in memory (decision 0213): the public answers
 * (FAQ, slider; `sharedAnswer`), the artist's own list (`ownedAnswers`, artist/owned-answers.ts) and
 * the status poll's answer bytes per track (the status lane). Values are kept per key; what differs
 * between those uses is chosen by the options:
 *
 * - **loaded** (`load`, `get(key)`): the value is read from the database. Younger than `ttlMs` it is
 *   served as kept. Past it, `stale: "serve-stale-while-reloading"` serves the old value while one
 *   reload runs in the background (public data); `stale: "wait"` makes the request wait for the
 *   reload (credentials-bound data: nothing is served past its time). One load runs per key at a time;
 *   requests arriving meanwhile share it.
 * - **kept while its source is unchanged** (`build`, `get(key, source)`): the caller reads the source
 *   text on every request (the status key's stored JSON); the kept value is served while it was made
 *   from that very text, else it is built again synchronously. `build` may return null: nothing to
 *   keep, and null is returned.
 *
 * In both, `forget(key)` / `forgetAll()` drop what is kept, so the next request reads again; a load
 * that a forget overlapped is handed to the requests that waited for it but not kept (each load
 * carries a token, and only the key's current load may keep its value). At most `max` keys are kept;
 * the one loaded (or built) longest ago goes first.
 */
export type StalePolicy = "serve-stale-while-reloading" | "wait";

export interface KeptOptions<K, V> {
  /** Reads a key's value (loaded mode). `previous` is the value kept for the key when the load began. */
  load?: (key: K, previous: V | undefined) => Promise<V>;
  /** Makes a key's value from its source text (source mode); null: nothing to keep. */
  build?: (source: string, key: K) => V | null;
  /** How long a loaded value is served as it is, in milliseconds; no limit when absent. */
  ttlMs?: number;
  /** What a request finds past `ttlMs`. "wait" when absent. */
  stale?: StalePolicy;
  /** Keys kept at most; no limit when absent. */
  max?: number;
  /** Milliseconds, the app clock (tests move it). `Date.now` when absent. */
  now?: () => number;
  /** A background reload (serve-stale-while-reloading) failed; the old value stays served. */
  onError?: (err: unknown, key: K) => void;
}

interface Entry<V> {
  value: V;
  at: number;
  source?: string;
}

export class KeptAnswers<K, V> {
  readonly #kept = new Map<K, Entry<V>>();
  /** The key's current load; a forget removes it, so a load still running is no longer current. */
  readonly #loading = new Map<K, { promise?: Promise<V> }>();
  readonly #opts: KeptOptions<K, V>;
  readonly #now: () => number;
  readonly #ttlMs: number;

  constructor(opts: KeptOptions<K, V>) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    this.#ttlMs = opts.ttlMs ?? Infinity;
  }

  /** Source mode: the value made from `source`, kept while the key's source stays that very text. */
  get(key: K, source: string): V | null;
  /**
   * Loaded mode: the key's value; a promise when it has to be read (none kept, or stale and "wait").
   * Declared last, so `ReturnType<typeof cache.get>` names this one.
   */
  get(key: K): V | Promise<V>;
  get(key: K, source?: string): V | Promise<V> | null {
    if (source !== undefined) return this.#fromSource(key, source);
    const entry = this.#kept.get(key);
    if (entry) {
      if (this.#now() - entry.at <= this.#ttlMs) return entry.value;
      if (this.#opts.stale === "serve-stale-while-reloading") {
        if (!this.#loading.has(key)) this.#reload(key).catch((err) => this.#opts.onError?.(err, key));
        return entry.value;
      }
    }
    return this.#reload(key);
  }

  /** What the keys' values show changed on this instance: the next request reads them again. */
  forget(...keys: (K | null | undefined)[]): void {
    for (const key of keys) {
      if (key === null || key === undefined) continue;
      this.#kept.delete(key);
      this.#loading.delete(key);
    }
  }

  /** Every key forgotten (see `forget`). */
  forgetAll(): void {
    this.#kept.clear();
    this.#loading.clear();
  }

  /** How many keys are kept (tests). */
  get size(): number {
    return this.#kept.size;
  }

  #keep(key: K, entry: Entry<V>): void {
    // Re-inserted: the map's order is the order of loading, the oldest first.
    this.#kept.delete(key);
    this.#kept.set(key, entry);
    if (this.#opts.max !== undefined && this.#kept.size > this.#opts.max) {
      this.#kept.delete(this.#kept.keys().next().value!);
    }
  }

  #fromSource(key: K, source: string): V | null {
    const entry = this.#kept.get(key);
    if (entry && entry.source === source) return entry.value;
    const build = this.#opts.build;
    if (!build) throw new Error("KeptAnswers: get(key, source) needs the `build` option");
    const value = build(source, key);
    if (value === null) return null;
    this.#keep(key, { value, at: this.#now(), source });
    return value;
  }

  #reload(key: K): Promise<V> {
    const pending = this.#loading.get(key);
    if (pending?.promise) return pending.promise;
    const load = this.#opts.load;
    if (!load) throw new Error("KeptAnswers: get(key) needs the `load` option");
    const previous = this.#kept.get(key)?.value;
    // The token is current before the load starts, so even a load that fails at once finds it.
    const mine: { promise?: Promise<V> } = {};
    this.#loading.set(key, mine);
    mine.promise = (async () => {
      try {
        const value = await load(key, previous);
        // Forgotten meanwhile (a write): handed to the waiting requests, not kept.
        if (this.#loading.get(key) === mine) this.#keep(key, { value, at: this.#now() });
        return value;
      } finally {
        if (this.#loading.get(key) === mine) this.#loading.delete(key);
      }
    })();
    return mine.promise;
  }
}

/** How a JSON answer's copies are made: brotli 11 + gzip 9 (public answers) or gzip level 1 (per user). */
export type AnswerCompression = "br+gzip" | "gzip-1";

/** The answer for a JSON text; the previous one when it was made from the same text (same bytes and ETag). */
export async function jsonAnswer(text: string, compression: AnswerCompression, previous?: Answer): Promise<Answer> {
  if (previous && previous.source === text) return previous;
  if (compression === "br+gzip") return await makeAnswer(text, "application/json");
  const identity = new TextEncoder().encode(text);
  const gzip = text.length >= COMPRESS_JSON_MIN ? gzipSync(identity, { level: 1 }) : null;
  return { etag: await contentTag(identity), contentType: "application/json", identity, gzip, br: null, source: text };
}

/** A keyed cache of JSON answers: `load` gives the value, serialised and made into an Answer here. */
export function keptJsonAnswers<K>(
  load: (key: K) => Promise<unknown>,
  opts: Omit<KeptOptions<K, Answer>, "load" | "build"> & { compression: AnswerCompression },
): KeptAnswers<K, Answer> {
  return new KeptAnswers<K, Answer>({
    ...opts,
    load: async (key, previous) => jsonAnswer(JSON.stringify(await load(key)), opts.compression, previous),
  });
}

/**
 * One public JSON answer built from the database, kept in the process (one key of a `KeptAnswers`).
 * `invalidate()` (called by every write through the services) drops it at once, so this instance's
 * next request reads the database again; other instances sharing the database re-read it when their
 * copy is older than `ttlMs`, so they see a change within about that long. Past `ttlMs` the old copy
 * is still served while one reload runs in the background; after `invalidate()` requests wait for
 * the reload, and a read that overlapped it is not kept.
 */
export function cachedJson<T>(
  load: () => Promise<T>,
  opts: { ttlMs: number; onError?: (err: unknown) => void; now?: () => number },
) {
  const kept = keptJsonAnswers<true>(load, {
    ttlMs: opts.ttlMs,
    stale: "serve-stale-while-reloading",
    now: opts.now,
    onError: opts.onError && ((err) => opts.onError!(err)),
    compression: "br+gzip",
  });
  return {
    /** The answer to send; reads the database only when there is none or it is stale. */
    get: (): Answer | Promise<Answer> => kept.get(true),
    /** The content changed (a write on this instance): the next request reads it again. */
    invalidate: () => kept.forget(true),
  };
}

type CachedJson = ReturnType<typeof cachedJson>;

/**
 * A public list's answer kept ready per database (tests run several apps in one process): `get`
 * gives the database's `cachedJson`, built on first use with the shared lifetime
 * (SHARED_ANSWER_TTL_MS); `invalidate` is what every write of the list's service calls.
 */
export function sharedAnswer<
  C extends {
    db: object;
    clock: { now(): Date };
    logger: { error(msg: string, data?: Record<string, unknown>): void };
  },
>(
  name: string,
  load: (ctx: C) => Promise<unknown>,
) {
  const byDb = new WeakMap<object, CachedJson>();
  return {
    get(ctx: C): CachedJson {
      let answer = byDb.get(ctx.db);
      if (!answer) {
        answer = cachedJson(() => load(ctx), {
          ttlMs: SHARED_ANSWER_TTL_MS,
          now: () => ctx.clock.now().getTime(),
          onError: (err) => ctx.logger.error(`${name}: reload failed`, { err }),
        });
        byDb.set(ctx.db, answer);
      }
      return answer;
    },
    invalidate(db: object) {
      byDb.get(db)?.invalidate();
    },
  };
}
