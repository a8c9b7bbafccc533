/**
 * File names in ASCII for radio ingest and distributors (issues 34, 35): the one transliteration
 * rule of the release desk's and the episode desk's files. Cyrillic follows ICAO Doc 9303 (the
 * Russian passport rule since 2013): letters only, no apostrophes or backticks, so a name survives
 * every file system and automation tool (GOST 7.79 B needs `` ` `` and `'`). Latin letters with
 * marks lose their marks (é → e); anything else outside printable ASCII, and the characters file
 * systems refuse (`/ \ : * ? " < > |`), goes; runs of spaces become one.
 */
const ICAO: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "i",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "ie",
  ы: "y",
  ь: "",
  э: "e",
  ю: "iu",
  я: "ia",
  // Ukrainian and Belarusian letters artists use, by the same standard.
  і: "i",
  ї: "i",
  є: "ie",
  ґ: "g",
  ў: "u",
};

const UNSAFE = /[\\/:*?"<>|]/g;

function isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

/** One character in ASCII; a capital's first letter stays capital, all of it when the next is capital too. */
function letter(chars: string[], at: number): string {
  const ch = chars[at];
  const lower = ch.toLowerCase();
  const mapped = ICAO[lower];
  if (mapped === undefined) return ch;
  if (!isUpper(ch) || mapped === "") return mapped;
  const next = chars[at + 1] ?? "";
  const prev = chars[at - 1] ?? "";
  const shout = (next && isUpper(next)) || (!next && prev && isUpper(prev));
  return shout ? mapped.toUpperCase() : mapped.charAt(0).toUpperCase() + mapped.slice(1);
}

/** `text` in printable ASCII: Cyrillic by ICAO 9303, marks dropped, unsafe characters removed. */
export function asciiName(text: string): string {
  const chars = Array.from(text.normalize("NFC"));
  const out = chars.map((_, i) => letter(chars, i)).join("")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[–—]/g, "-")
    .replace(/[«»“”„]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(UNSAFE, "")
    .replace(/\s+/g, " ")
    .trim();
  return out;
}
