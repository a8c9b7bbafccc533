import type { Direction } from "./directions.ts";

/**
 * A resumable upload as the server answers it and the browser reads it (issue 26, decision 0250):
 * `POST /api/upload/resumable` and `GET /api/upload/resumable/{id}`. `parts_done` are 1-based part
 * numbers of the parts stored whole (a part stored short by a cut is not done: it is sent again,
 * docs/decisions/0292); `part_urls` are the presigned addresses of the parts still to send (S3 mode only).
 */
export interface ResumableUploadView {
  id: string;
  filename: string;
  size: number;
  mode: "s3" | "local";
  part_size: number;
  part_count: number;
  parts_done: number[];
  part_urls: Record<string, string>;
  expires_at: string;
}

/**
 * One of the artist's unfinished uploads as `GET /api/upload/resumable` lists them (issue 31,
 * docs/decisions/0290): what the upload page shows before any file is picked, and what a file picked
 * to continue it must match (name, size, modification time). No part addresses: the page asks the
 * upload's own status when it continues.
 */
export interface ResumableUploadSummary {
  id: string;
  filename: string;
  size: number;
  /** The file's modification time (ms) the browser gave at the start; null when it gave none. */
  last_modified: number | null;
  directions: Direction[];
  part_size: number;
  part_count: number;
  parts_done: number[];
  /** Bytes the finished parts hold. */
  bytes_done: number;
  created_at: string;
  expires_at: string;
}
