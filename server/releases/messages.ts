import { isLabelDirection, LABEL_NAMES, russianDate } from "../../domain/releases.ts";
import { escapeHtml } from "../notifications/message-text.ts";
import type { MaterialItem } from "./views.ts";

/**
 * The artist's Telegram messages of the release desk (issue 34), in Russian, Telegram HTML. Each
 * goes through the outbox (`artistTextStatements`) under a key naming the release:
 * `release:<id>:request:1`, `release:<id>:reminder:<n>`, `release:<id>:scheduled:<revision>`,
 * `release:<id>:released:1`.
 */

/** The artist's release page. */
export function releaseUrl(publicUrl: string, id: number): string {
  return `${publicUrl}/releases/${id}`;
}

const WHAT: Record<MaterialItem["kind"], string> = {
  master: "мастер (WAV, FLAC или AIFF, 44,1 или 48 кГц)",
  extended: "расширенная версия (extended mix, не короче оригинала)",
  instrumental: "инструментал",
  label_copy: "данные релиза: название, артисты, авторы и их доли, ISRC",
  sample_clearance: "ответ про сэмплы (использованы ли и разрешены ли)",
};

function labelOf(direction: string): string {
  return isLabelDirection(direction) ? LABEL_NAMES[direction] : direction;
}

function list(items: readonly MaterialItem[]): string {
  return items.map((i) => `• ${WHAT[i.kind]}`).join("\n");
}

export const releaseMessageKey = {
  request: (id: number) => `release:${id}:request:1`,
  reminder: (id: number, n: number) => `release:${id}:reminder:${n}`,
  scheduled: (id: number, revision: number) => `release:${id}:scheduled:${revision}`,
  released: (id: number) => `release:${id}:released:1`,
};

/** On accept (once its hold is over): what the label needs, and where to send it. */
export function requestText(p: { title: string; direction: string; needed: readonly MaterialItem[]; url: string }) {
  return `Трек «${escapeHtml(p.title)}» принят на ${
    escapeHtml(labelOf(p.direction))
  }! Чтобы выпустить релиз, пришлите:\n${list(p.needed)}\n\nВсё это — на странице релиза: ${p.url}`;
}

/** A reminder: what is still missing. */
export function reminderText(p: { title: string; missing: readonly MaterialItem[]; url: string }) {
  return `Напоминаем: для релиза «${escapeHtml(p.title)}» ещё нужны:\n${list(p.missing)}\n\nСтраница релиза: ${p.url}`;
}

/** Scheduled: «Релиз запланирован на ДД.ММ.ГГГГ, номер NPR123». */
export function scheduledText(p: { title: string; date: string; catalogue: string; url: string }) {
  return `Релиз запланирован на ${russianDate(p.date)}, номер ${escapeHtml(p.catalogue)}\n«${
    escapeHtml(p.title)
  }» — ${p.url}`;
}

/** On the release day. */
export function releasedText(p: { title: string; direction: string; catalogue: string | null; url: string }) {
  const cat = p.catalogue ? ` (${escapeHtml(p.catalogue)})` : "";
  return `Сегодня вышел релиз «${escapeHtml(p.title)}»${cat} на ${
    escapeHtml(labelOf(p.direction))
  }. Поздравляем!\n${p.url}`;
}
