import { buildContext, createApp } from "./app.ts";
import { ConfigError, configFromEnvOrExit } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import { recoverStorage, RECOVERY_MIN_AGE_MS } from "./storage/recover-storage.ts";
import { buildDeps } from "./wiring.ts";
import { createResumableUploads } from "./uploads/resumable/service.ts";
import { setMiniAppMenuButton } from "./notifications/telegram-updates/menu-button.ts";

export interface MainOptions {
  /**
   * Test entry points only (server/testing/): changes the wired dependencies before the app is
   * built. Nothing in the product passes it (docs/decisions/0178).
   */
  adjustDeps?: (deps: AppDeps) => AppDeps;
}

/** Reads the configuration, wires the real dependencies and serves until SIGINT/SIGTERM. */
export async function main(opts: MainOptions = {}) {
  const config = configFromEnvOrExit();
  let deps: AppDeps;
  try {
    deps = await buildDeps(config);
  } catch (err) {
    // A setting that only proves wrong once used (JWT_SECRET missing on a read-only DATA_DIR).
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    Deno.exit(1);
  }
  if (opts.adjustDeps) deps = opts.adjustDeps(deps);
  if (!config.jwtSecret && (config.s3 || config.upstash)) {
    deps.logger.warn(
      "JWT_SECRET is not set: this instance signs with its own secret from DATA_DIR, so sessions started on another instance are refused here; set JWT_SECRET",
    );
  }
  const ctx = buildContext(deps);
  const app = createApp(ctx);
  const recover = () =>
    recoverStorage(deps).then(
      (r) => (r.partials || r.orphans) && deps.logger.info("removed interrupted uploads", { ...r }),
      (err) => deps.logger.error("storage recovery failed", { err }),
    );
  // Resumable uploads left unfinished for 24 h are aborted, their parts removed; safe on several
  // instances at once (issue 26, docs/decisions/0252).
  const resumable = createResumableUploads(ctx);
  const sweepUploads = () =>
    resumable.sweep().then(
      (r) => (r.aborted || r.deleted || r.orphans) && deps.logger.info("swept resumable uploads", { ...r }),
      (err) => deps.logger.error("resumable upload sweep failed", { err }),
    );
  // In the background: it lists every stored file, and leftovers are invisible meanwhile, so
  // start-up does not wait for it.
  void recover();
  void sweepUploads();
  const recoveryTimer = setInterval(() => {
    void recover();
    void sweepUploads();
  }, RECOVERY_MIN_AGE_MS);
  Deno.unrefTimer(recoveryTimer);
  // Sends the Telegram outbox's pending rows, those left by the last run included, and then every
  // row a decision enqueues (docs/decisions/0157). Without TELEGRAM_BOT_TOKEN it does nothing.
  ctx.notifications.sender.start();
  // The staff cards' presses (issue 27): the webhook is set, or this instance competes for the
  // polling lease (docs/decisions/0262). Without TELEGRAM_BOT_TOKEN it does nothing.
  ctx.telegramUpdates.start();
  // The bot's menu button opens the Mini App (issue 36), with an https PUBLIC_URL; once, in the background.
  void setMiniAppMenuButton(deps);
  // Tracks left `processing` that no instance holds (a lease held by an instance that died is taken
  // once it has ended); then the idle sweep keeps looking, so no track waits for an upload to come
  // through this instance (docs/decisions/0170).
  const resumed = await ctx.processor.start();
  if (resumed) deps.logger.info("resumed processing", { tracks: resumed });
  // Tracks processed before the audio analysis existed get their report in the background, one at a
  // time between uploads' jobs; start-up and requests do not wait for it.
  void ctx.processor.analyseOlder().then(
    (n) => n && deps.logger.info("analysing older tracks", { tracks: n }),
    (err) => deps.logger.error("could not list tracks to analyse", { err }),
  );
  // Reports of an older analyser are analysed again, one track at a time while no upload waits for
  // processing (docs/decisions/0217); off with REANALYSIS=false.
  ctx.reanalysis.start();
  // Pairs past their promise and grace are declined automatically, by one instance at a time (issue 25).
  ctx.promiseSweep.start();
  // Release files left `checking` by a stopped process are checked again (issue 34).
  void ctx.releaseMaterials.resume().then(
    (n) => n && deps.logger.info("resumed release file checks", { files: n }),
    (err) => deps.logger.error("could not resume release file checks", { err }),
  );
  // The release desk's requests, reminders and release days, one instance at a time (issue 34).
  ctx.releases.sweep.start();

  const server = Deno.serve({
    port: config.port,
    hostname: "0.0.0.0",
    onListen: ({ port }) => deps.logger.info(`listening on http://localhost:${port}`, { publicUrl: config.publicUrl }),
  }, app.fetch);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("shutting down", { signal });
    // Stop taking requests, let in-flight ones finish, then let running jobs end; tracks not
    // finished stay `processing` in the database with their leases given up, so another instance
    // (or this one's next start) takes them at once.
    clearInterval(recoveryTimer);
    await server.shutdown();
    // The message being sent is finished; rows not reached stay pending for the next start.
    // The poll ends and its lease is given up, so another instance polls at once.
    await ctx.telegramUpdates.stop(5_000);
    await ctx.notifications.sender.stop(5_000);
    await ctx.reanalysis.stop(5_000);
    await ctx.promiseSweep.stop();
    await ctx.releases.sweep.stop();
    await ctx.processor.stop(20_000);
    await ctx.releaseMaterials.stop(5_000);
    deps.kv.close?.();
    deps.db.$client.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await main();
