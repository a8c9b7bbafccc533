import type { Config } from "../config.ts";
import type { Logger } from "../lib/logger.ts";
import { createS3Storage } from "./s3-file-storage.ts";
import { createPartPool, S3_PART_BUFFERS } from "./s3-part-pool.ts";
import { createLocalStorage, type FileStorage } from "./file-storage.ts";

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
const S3_TRACKS_PREFIX = "tracks/";
const S3_PUBLIC_PREFIX = "public/";

export function createStores(
  config: Pick<Config, "dataDir" | "staticDir" | "s3">,
  opts: { logger?: Pick<Logger, "warn"> } = {},
): Stores {
  const s3 = config.s3;
  if (!s3) {
    return {
      storage: createLocalStorage(`${config.dataDir}/tracks`),
      publicStorage: createLocalStorage(`${config.staticDir}/storage`),
    };
  }
  const { publicUrl, ...connection } = s3;
  const common = { ...connection, logger: opts.logger, partPool: createPartPool({ size: S3_PART_BUFFERS }) };
  return {
    // Tracks are private: no public address, whatever S3_PUBLIC_URL says.
    storage: createS3Storage({ ...common, prefix: S3_TRACKS_PREFIX }),
    publicStorage: createS3Storage({ ...common, prefix: S3_PUBLIC_PREFIX, publicUrl }),
  };
}
