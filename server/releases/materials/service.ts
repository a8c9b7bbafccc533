/**
 * A release's files from the artist (issue 34; docs/decisions/0360–0362): which release may take a
 * file, the row a finished upload writes (`checking`, replacing the kind's earlier file), and the
 * deferred check that decides it. Checks run one at a time per instance on their own queue (a 300 MB
 * master takes a while and must not hold the demos' processing); a check that fails for a reason
 * other than the file's content is tried again, and after MAX_ATTEMPTS the file is refused with a
 * reason, so nothing stays `checking`. Rows left `checking` by a stopped process are queued again at
 * start (`resume`). After every change the release desk is told (`afterMaterialsChanged`).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { releaseHistory, releaseMaterials, releases, tracks } from "../../../db/schema.ts";
import type { MaterialKind } from "../../../domain/release-material.ts";
import { conflict, notFound } from "../../lib/http-error.ts";
import type { Logger } from "../../lib/logger.ts";
import { createTaskQueue } from "../../lib/queue.ts";
import type { FileStorage } from "../../storage/file-storage.ts";
import { type CheckDeps, checkMaterial, writeVerdict } from "./check.ts";
import { MATERIAL_REASONS } from "./judge.ts";

/** The stages a release takes files in: until it is scheduled (docs/decisions/0361). */
export const MATERIAL_STAGES = ["materials_requested", "materials_received"] as const;
export const RELEASE_NOT_FOUND = "Релиз не найден.";
export const RELEASE_CLOSED =
  "Файлы для этого релиза больше не принимаются: он уже запланирован, вышел или отменён. Напишите лейблу, если нужно что-то заменить.";
/** Tries of a check that failed for a reason other than the file (a storage error). */
export const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 2_000;

export interface MaterialsDeps {
  db: Db;
  storage: FileStorage;
  logger: Logger;
  clock: { now(): Date };
  config: { maxTrackMinutes: number };
  /** The release desk's hook (its stage follows its materials); called after every change. */
  afterMaterialsChanged?: (releaseId: number) => Promise<void> | void;
}

export interface ReceivedFile {
  releaseId: number;
  kind: MaterialKind;
  userId: number;
  filename: string;
  size: number;
  storageKey: string;
}

export function createReleaseMaterials(deps: MaterialsDeps) {
  const { db, logger } = deps;
  const queue = createTaskQueue(1, (err) => logger.error("release file check failed", { err }));
  const checkDeps: CheckDeps = { ...deps, maxMinutes: deps.config.maxTrackMinutes };
  let after = deps.afterMaterialsChanged;
  let closed = false;

  const tell = async (releaseId: number) => {
    try {
      await after?.(releaseId);
    } catch (err) {
      logger.error("the release desk could not take a materials change", { releaseId, err });
    }
  };

  const history = (releaseId: number, userId: number | null, action: string, value: unknown) =>
    db.insert(releaseHistory).values({
      release_id: releaseId,
      user_id: userId,
      action,
      before: null,
      after: value,
      created_at: deps.clock.now(),
    });

  const run = async (releaseId: number, kind: MaterialKind, attempt: number): Promise<void> => {
    try {
      if (!(await checkMaterial(checkDeps, releaseId, kind))) return;
    } catch (err) {
      if (closed) return;
      logger.warn("release file check failed", { releaseId, kind, attempt, err });
      if (attempt < MAX_ATTEMPTS) {
        const timer = setTimeout(() => enqueue(releaseId, kind, attempt + 1), RETRY_DELAY_MS * attempt);
        Deno.unrefTimer(timer);
        return;
      }
      const [row] = await db.select({ key: releaseMaterials.storage_key }).from(releaseMaterials).where(
        and(eq(releaseMaterials.release_id, releaseId), eq(releaseMaterials.kind, kind)),
      );
      const verdict = { state: "refused" as const, reason: MATERIAL_REASONS.failed, report: null };
      if (!row || !(await writeVerdict(deps, releaseId, kind, row.key, verdict))) return;
    }
    const [row] = await db.select({ state: releaseMaterials.state, reason: releaseMaterials.reason }).from(
      releaseMaterials,
    ).where(and(eq(releaseMaterials.release_id, releaseId), eq(releaseMaterials.kind, kind)));
    if (row) await history(releaseId, null, "material_checked", { kind, state: row.state, reason: row.reason });
    await tell(releaseId);
  };

  const enqueue = (releaseId: number, kind: MaterialKind, attempt = 1) =>
    queue.push(() => run(releaseId, kind, attempt));

  return {
    /**
     * The artist's own release that takes files now; 404 for one that is not theirs (or none), 409
     * once it is scheduled, released or cancelled.
     */
    async uploadTarget(userId: number, releaseId: number): Promise<void> {
      const [row] = await db.select({ stage: releases.stage }).from(releases)
        .innerJoin(tracks, eq(tracks.id, releases.track_id))
        .where(and(eq(releases.id, releaseId), eq(tracks.user_id, userId)));
      if (!row) throw notFound(RELEASE_NOT_FOUND);
      if (!(MATERIAL_STAGES as readonly string[]).includes(row.stage)) throw conflict(RELEASE_CLOSED);
    },

    /**
     * A finished upload of a release file: its row is written (or replaces the kind's earlier file,
     * whose stored file is removed) as `checking`, and its check queued.
     */
    async received(file: ReceivedFile): Promise<void> {
      const [old] = await db.select({ key: releaseMaterials.storage_key }).from(releaseMaterials).where(
        and(eq(releaseMaterials.release_id, file.releaseId), eq(releaseMaterials.kind, file.kind)),
      );
      const now = deps.clock.now();
      const values = {
        state: "checking" as const,
        reason: null,
        report: null,
        filename: file.filename,
        size: file.size,
        storage_key: file.storageKey,
        updated_at: now,
      };
      await db.batch([
        db.insert(releaseMaterials).values({ release_id: file.releaseId, kind: file.kind, ...values, created_at: now })
          .onConflictDoUpdate({ target: [releaseMaterials.release_id, releaseMaterials.kind], set: values }),
        history(file.releaseId, file.userId, "material_received", {
          kind: file.kind,
          filename: file.filename,
          size: file.size,
        }),
      ]);
      if (old && old.key !== file.storageKey) {
        await deps.storage.delete(old.key).catch((err) =>
          logger.warn("could not remove a replaced release file", { key: old.key, err })
        );
      }
      enqueue(file.releaseId, file.kind);
      await tell(file.releaseId);
    },

    /** Queues the check of every row left `checking` (a process stopped mid-check); how many. */
    async resume(): Promise<number> {
      const rows = await db.select({ release: releaseMaterials.release_id, kind: releaseMaterials.kind }).from(
        releaseMaterials,
      ).where(eq(releaseMaterials.state, "checking"));
      for (const r of rows) enqueue(r.release, r.kind);
      return rows.length;
    },

    /** The release desk's hook, set once both are built (app.ts). */
    setAfterMaterialsChanged(fn: (releaseId: number) => Promise<void> | void) {
      after = fn;
    },

    /** Resolves when no check is queued or running (tests, the bench). */
    idle: () => queue.idle(),

    /** Stops taking checks and waits for the running one (bounded); unfinished rows stay `checking`. */
    async stop(timeoutMs = 5_000) {
      closed = true;
      await queue.close(timeoutMs);
    },
  };
}

export type ReleaseMaterials = ReturnType<typeof createReleaseMaterials>;
