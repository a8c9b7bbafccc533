/**
 * A release's files from the artist (issue 34): the kinds, the file names taken (not the MP3 name
 * rule: a master keeps whatever name the studio gave it, only its type is asked), and their Russian
 * names. Read by the resumable upload's start (server/uploads/resumable/routes.ts) and the release
 * page's file picker.
 */
export const MATERIAL_KINDS = ["master", "extended", "instrumental"] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

export const MATERIAL_LABELS: Record<MaterialKind, string> = {
  master: "Мастер",
  extended: "Extended-версия",
  instrumental: "Инструментал",
};

/** The extensions taken: WAV, FLAC, AIFF (the content is checked after the upload). */
export const MATERIAL_EXTENSIONS = [".wav", ".flac", ".aif", ".aiff"] as const;

/** The file picker's `accept`. */
export const MATERIAL_ACCEPT = MATERIAL_EXTENSIONS.join(",");

/** Why a file name is not taken for a release file; null when it is. */
export function materialNameProblem(filename: string): string | null {
  const name = filename.trim();
  if (name === "" || name.length > 255) return "Укажите имя файла (до 255 символов).";
  // deno-lint-ignore no-control-regex
  if (/[\\/\u0000-\u001f\u007f]/.test(name)) return "Имя файла не должно содержать «/», «\\» и управляющие символы.";
  const lower = name.toLowerCase();
  if (!MATERIAL_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length)) {
    return `Файл «${name}» не подходит: нужен WAV, FLAC или AIFF (.wav, .flac, .aif, .aiff).`;
  }
  return null;
}
