import { useSyncExternalStore } from "react";

/** Flash messages, top right (spec 1 §2): fade after 6 s, removed 0.5 s later. */
export type FlashKind = "success" | "info" | "warning" | "error";
export interface FlashMessage {
  id: number;
  kind: FlashKind;
  text: string;
  leaving: boolean;
}

export const FLASH_VISIBLE_MS = 6000;
export const FLASH_FADE_MS = 500;

let messages: FlashMessage[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function flash(kind: FlashKind | "danger", text: string): number {
  const id = nextId++;
  messages = [...messages, { id, kind: kind === "danger" ? "error" : kind, text, leaving: false }];
  emit();
  setTimeout(() => {
    messages = messages.map((m) => (m.id === id ? { ...m, leaving: true } : m));
    emit();
    setTimeout(() => dismissFlash(id), FLASH_FADE_MS);
  }, FLASH_VISIBLE_MS);
  return id;
}

export function dismissFlash(id: number) {
  messages = messages.filter((m) => m.id !== id);
  emit();
}

export function useFlashes(): FlashMessage[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => messages,
    () => messages,
  );
}
