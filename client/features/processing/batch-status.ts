/** The processing page's rules (spec 1 §4 "Processing of a track", "Batch"). */

export const STATUS_POLL_MS = 3000;
export const CONFETTI_DELAY_MS = 300;
export const FAILED_FILES_CLEAR_MS = 5000;
export const CONFETTI_OPTIONS = { particleCount: 100, spread: 70 } as const;

export const PROCESSING_TEXTS = {
  loadFailed: "Не удалось получить информацию о треках. Пожалуйста, попробуйте позже.",
  checkFailed: "Ошибка проверки статуса трека",
  failedFilesTitle: "Файлы, не прошедшие проверку",
  notUploaded: "Не загружен",
} as const;

export type TrackState = "processing" | "completed" | "failed";

export interface TrackProgress {
  id: number;
  /** Null until the first answer (reads Ожидание). */
  status: TrackState | null;
  filename: string | null;
  error: string | null;
}

export function statusLabel(status: TrackState | null): string {
  switch (status) {
    case "completed":
      return "Завершено";
    case "processing":
      return "Обработка";
    case "failed":
      return "Ошибка";
    default:
      return "Ожидание";
  }
}

export const isFinal = (t: TrackProgress) => t.status === "completed" || t.status === "failed";

/** Every track completed or failed. */
export function isBatchFinished(tracks: readonly TrackProgress[]): boolean {
  return tracks.length > 0 && tracks.every(isFinal);
}

/** Finished with no processing error. */
export function isBatchSuccess(tracks: readonly TrackProgress[]): boolean {
  return isBatchFinished(tracks) && tracks.every((t) => t.status === "completed");
}

/** A status answer from GET /api/status/{id}; anything unexpected is treated as not yet known. */
export function readStatus(body: unknown): Pick<TrackProgress, "status" | "filename" | "error"> {
  const b = (body ?? {}) as { status?: unknown; error?: unknown; track_data?: { filename?: unknown } | null };
  const status = b.status === "processing" || b.status === "completed" || b.status === "failed" ? b.status : null;
  return {
    status,
    filename: typeof b.track_data?.filename === "string" ? b.track_data.filename : null,
    error: typeof b.error === "string" && b.error ? b.error : null,
  };
}
