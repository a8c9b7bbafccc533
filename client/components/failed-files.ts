import { STORAGE_KEYS } from "../lib/storage-keys.ts";

/**
 * Files that never reached the server (spec 1 §3 "Failed-file record"), kept in local storage under
 * `failedFiles`: written by the upload page, shown and cleared by the processing page.
 */
export interface FailedFile {
  filename: string;
  error: string;
}

export function readFailedFiles(): FailedFile[] {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEYS.failedFiles) ?? "[]");
    if (!Array.isArray(raw)) return [];
    return raw.filter((r): r is FailedFile =>
      r !== null && typeof r === "object" && typeof r.filename === "string" && typeof r.error === "string"
    );
  } catch {
    return [];
  }
}

export function writeFailedFiles(list: FailedFile[]) {
  if (list.length === 0) localStorage.removeItem(STORAGE_KEYS.failedFiles);
  else localStorage.setItem(STORAGE_KEYS.failedFiles, JSON.stringify(list));
}

/** Adds records, one per file name (a later record for the same name replaces the earlier). */
export function addFailedFiles(records: FailedFile[]) {
  const byName = new Map(readFailedFiles().map((r) => [r.filename, r]));
  for (const r of records) byName.set(r.filename, r);
  writeFailedFiles([...byName.values()]);
}

export function clearFailedFiles() {
  localStorage.removeItem(STORAGE_KEYS.failedFiles);
}
