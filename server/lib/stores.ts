import type { Config } from "../config.ts";
import type { Logger } from "./logger.ts";
import { createPartPool, createS3Storage, type PartPool } from "./s3-storage.ts";
import { createLocalStorage, type FileStorage } from "./storage.ts";

/**
 * Where private tracks and public uploads live. Without `S3_BUCKET`: files on the local disk,
 * tracks under `DATA_DIR/tracks` and public uploads under `STATIC_DIR/storage` (the embedded
 * default). With it: one bucket, tracks under `tracks/` and public uploads under `public/`, both
 * stores borrowing their multipart part buffers from one pool (decisions 0111, 0112).
 */
export interface Stores {
  storage: FileStorage;
  publicStorage: FileStorage;
}

/** Key prefixes in the bucket (decision 0111). */
export const S3_TRACKS_PREFIX = "tracks/";
export const S3_PUBLIC_PREFIX = "public/";

/**
 * Part buffers of 5 MiB the process may lend at once for uploads into the bucket; 2 are kept between
 * uploads. High on purpose: an upload that waits for a buffer costs more memory than the buffer,
 * because Deno's HTTP server keeps reading its body (~10–13 MB per stalled request, measured), so
 * the cap only bounds a burst (decision 0112).
 */
export const S3_PART_BUFFERS = 16;

export function createStores(
  config: Pick<Config, "dataDir" | "staticDir" | "s3">,
  opts: { logger?: Pick<Logger, "warn">; partPool?: PartPool; fetch?: typeof fetch } = {},
): Stores {
  const s3 = config.s3;
  if (!s3) {
    return {
      storage: createLocalStorage(`${config.dataDir}/tracks`),
      publicStorage: createLocalStorage(`${config.staticDir}/storage`),
    };
  }
  const partPool = opts.partPool ?? createPartPool({ size: S3_PART_BUFFERS });
  const common = {
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    sessionToken: s3.sessionToken,
    logger: opts.logger,
    partPool,
    fetch: opts.fetch,
  };
  return {
    // Tracks are private: no public address, whatever S3_PUBLIC_URL says.
    storage: createS3Storage({ ...common, prefix: S3_TRACKS_PREFIX }),
    publicStorage: createS3Storage({ ...common, prefix: S3_PUBLIC_PREFIX, publicUrl: s3.publicUrl }),
  };
}
