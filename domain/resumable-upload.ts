/**
 * A resumable upload as the server answers it and the browser reads it (issue 26, decision 0250):
 * `POST /api/upload/resumable` and `GET /api/upload/resumable/{id}`. `parts_done` are 1-based part
 * numbers; `part_urls` are the presigned addresses of the parts still to send (S3 mode only).
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
