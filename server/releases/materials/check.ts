/**
 * One release file's check (issue 34): the stored file streamed from storage through
 * server/audio/analyse-lossless.ts, compared with the accepted demo (judge.ts), and the verdict
 * written onto its `release_materials` row, unless the row was replaced meanwhile. Memory stays flat
 * as for an MP3 (the collector paced by the bytes read, server/lib/gc-pacer.ts) and other requests
 * are let in between chunks (server/lib/give-way.ts), so `/api/health` answers during a 300 MB check.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { releaseMaterials, releases, trackFingerprints, tracks } from "../../../db/schema.ts";
import type { MaterialKind } from "../../../domain/release-material.ts";
import { analyseLossless, type LosslessFacts } from "../../audio/analyse-lossless.ts";
import { analyseMp3Frames } from "../../audio/analyse-mp3.ts";
import { FINGERPRINT_VERSION } from "../../audio/fingerprint-codes.ts";
import { printFromBytes } from "../../audio/fingerprint-index.ts";
import { PcmDecodeError, type PcmFormat } from "../../audio/pcm-container.ts";
import { giveWay } from "../../lib/give-way.ts";
import type { Logger } from "../../lib/logger.ts";
import type { FileStorage } from "../../storage/file-storage.ts";
import { storedChunks } from "../../storage/stored-chunks.ts";
import {
  decodeReason,
  type DemoFacts,
  formatOnlyReport,
  formatProblem,
  judge,
  MATERIAL_REASONS,
  type Verdict,
} from "./judge.ts";

export interface CheckDeps {
  db: Db;
  storage: FileStorage;
  logger: Logger;
  clock: { now(): Date };
  /** The longest file taken, in minutes (MAX_TRACK_MINUTES, as for demos). */
  maxMinutes: number;
}

/** Bytes per read of a local file. */
const READ_BYTES = 128 * 1024;

/** The stored file as chunks, giving way to other requests and pacing the collector as it goes. */
export const fileChunks = (storage: FileStorage, key: string) => storedChunks(storage, key, READ_BYTES, giveWay);

/**
 * The accepted demo's length and fingerprint: the stored fingerprint of this analyser's version, or
 * else the demo's file analysed again (a track fingerprinted by an older version); null parts when
 * neither can be had.
 */
export async function demoFacts(d: CheckDeps, trackId: number): Promise<DemoFacts> {
  const [track] = await d.db.select({ duration: tracks.duration, key: tracks.storage_key }).from(tracks).where(
    eq(tracks.id, trackId),
  );
  if (!track) return { duration_s: null, fingerprint: null };
  const duration_s = track.duration === null ? null : track.duration / 1000;
  const [stored] = await d.db.select({ codes: trackFingerprints.codes }).from(trackFingerprints).where(
    and(eq(trackFingerprints.track_id, trackId), eq(trackFingerprints.version, FINGERPRINT_VERSION)),
  );
  if (stored) return { duration_s, fingerprint: printFromBytes(new Uint8Array(stored.codes)).codes };
  if (!track.key || !(await d.storage.stat(track.key))) return { duration_s, fingerprint: null };
  try {
    const { fingerprint } = await analyseMp3Frames(fileChunks(d.storage, track.key));
    return { duration_s, fingerprint: fingerprint.codes };
  } catch (err) {
    d.logger.warn("could not fingerprint a release's demo", { trackId, err });
    return { duration_s, fingerprint: null };
  }
}

/** Measures and judges the stored file `key` of `kind` against `demo`. */
export async function judgeStoredFile(
  d: CheckDeps,
  kind: MaterialKind,
  key: string,
  demo: DemoFacts,
): Promise<Verdict> {
  if (!(await d.storage.stat(key))) return { state: "refused", reason: MATERIAL_REASONS.missing, report: null };
  let refusedFormat: { format: PcmFormat; reason: string } | null = null;
  let facts: LosslessFacts | null;
  try {
    facts = await analyseLossless(fileChunks(d.storage, key), {
      maxSeconds: d.maxMinutes * 60,
      onFormat: (format) => {
        const reason = formatProblem(format);
        if (reason) refusedFormat = { format, reason };
        return reason === null;
      },
    });
  } catch (err) {
    if (err instanceof PcmDecodeError) return { state: "refused", reason: decodeReason(err.code), report: null };
    throw err;
  }
  if (facts === null) {
    const { format, reason } = refusedFormat!;
    return { state: "refused", reason, report: formatOnlyReport(format, demo) };
  }
  return judge(kind, facts, demo, d.maxMinutes);
}

/**
 * Checks the row (`releaseId`, `kind`) if it is still `checking`, and writes the verdict onto it
 * unless a newer file replaced it meanwhile. True when a verdict was written.
 */
export async function checkMaterial(d: CheckDeps, releaseId: number, kind: MaterialKind): Promise<boolean> {
  const [row] = await d.db
    .select({ key: releaseMaterials.storage_key, state: releaseMaterials.state, track: releases.track_id })
    .from(releaseMaterials)
    .innerJoin(releases, eq(releases.id, releaseMaterials.release_id))
    .where(and(eq(releaseMaterials.release_id, releaseId), eq(releaseMaterials.kind, kind)));
  if (!row || row.state !== "checking") return false;
  const started = performance.now();
  const verdict = await judgeStoredFile(d, kind, row.key, await demoFacts(d, row.track));
  const written = await writeVerdict(d, releaseId, kind, row.key, verdict);
  d.logger.info("release file checked", {
    releaseId,
    kind,
    state: verdict.state,
    ms: Math.round(performance.now() - started),
    written,
  });
  return written;
}

/** Writes a verdict onto the row still holding `key` and still `checking`; false when it was replaced. */
export async function writeVerdict(
  d: Pick<CheckDeps, "db" | "clock">,
  releaseId: number,
  kind: MaterialKind,
  key: string,
  verdict: Verdict,
): Promise<boolean> {
  const done = await d.db.update(releaseMaterials)
    .set({ state: verdict.state, reason: verdict.reason, report: verdict.report, updated_at: d.clock.now() })
    .where(and(
      eq(releaseMaterials.release_id, releaseId),
      eq(releaseMaterials.kind, kind),
      eq(releaseMaterials.storage_key, key),
      eq(releaseMaterials.state, "checking"),
    ))
    .returning({ kind: releaseMaterials.kind });
  return done.length > 0;
}
