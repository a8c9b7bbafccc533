import { DIRECTION_LABELS, isDirection } from "../../domain/directions.ts";
import { formatDayMonth } from "./format.ts";

/** The artist's texts of a pair's place in the queue (issue 36); the artist's pages and the Mini App. */
export const QUEUE_TEXTS = {
  of: "из",
  inQueue: "в очереди",
  expected: "ответ ожидается около",
  promised: "обещали до",
  heard: "послушали",
} as const;

/** A pair's queue figures as the artist's answers carry them (GET /api/tracks, /api/tracks/history). */
export interface QueueFigures {
  direction: string;
  respond_by: string | null;
  queue_position?: number | null;
  queue_length?: number | null;
  expected_by?: string | null;
  heard_by?: number | null;
}

/**
 * «№14 из 120 в очереди Подкаст Костёр · ответ ожидается около 12.12 (обещали до 13.12) · послушали 2»;
 * null for a decided pair. The date part only with a pace (`expected_by`), the promise in brackets
 * only with a promise, the listeners only when somebody has heard it (docs/decisions/0385).
 */
export function queueLine(d: QueueFigures): string | null {
  if (d.queue_position === null || d.queue_position === undefined) return null;
  if (d.queue_length === null || d.queue_length === undefined) return null;
  const label = isDirection(d.direction) ? DIRECTION_LABELS[d.direction] : d.direction;
  const parts = [`№${d.queue_position} ${QUEUE_TEXTS.of} ${d.queue_length} ${QUEUE_TEXTS.inQueue} ${label}`];
  if (d.expected_by) {
    const promised = d.respond_by ? ` (${QUEUE_TEXTS.promised} ${formatDayMonth(d.respond_by)})` : "";
    parts.push(`${QUEUE_TEXTS.expected} ${formatDayMonth(d.expected_by)}${promised}`);
  }
  if (d.heard_by) parts.push(`${QUEUE_TEXTS.heard} ${d.heard_by}`);
  return parts.join(" · ");
}
