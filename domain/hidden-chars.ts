/**
 * The one rule for text a person did not mean to hide (issue 20, decision 0205; widened by issue 32,
 * decision 0305). Every field a person types or the site stores from outside refuses:
 *
 * - the Unicode categories Cc (controls; tab and line breaks only in a multi-line field), Cf
 *   (format characters: bidi controls, zero-width characters, the soft hyphen, U+180E, the tag
 *   block), Co (private use), Cn (unassigned, noncharacters such as U+FFFE included) and Cs (a lone
 *   surrogate, which is no character at all);
 * - the line and paragraph separators U+2028 and U+2029 (Zl, Zp), everywhere;
 * - the variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, the Mongolian ones), outside emoji;
 * - the blank-looking letters: the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the Braille
 *   blank U+2800, the Khmer inherent vowels U+17B4–U+17B5, U+180E and the combining grapheme joiner
 *   U+034F; with them every other Default_Ignorable_Code_Point, which renders as nothing.
 *
 * Emoji stay whole (decision 0305): the zero-width joiner between two pictographs (after an optional
 * U+FE0F or skin tone), as in 👨‍👩‍👧 or 🏳️‍🌈; one U+FE0E/U+FE0F right after a character that has an
 * emoji form, as in ❤️ or the keycap 1️⃣; and the three subdivision flags written with tag characters
 * (England, Scotland, Wales). Any other tag sequence is refused: tags render as nothing and can carry
 * a whole hidden sentence.
 *
 * The categories are read by the regular expression's property escapes, so the rule follows the
 * Unicode version of the engine (the server's V8, the reader's browser).
 */

/** How the text is typed: a multi-line field (a textarea) keeps tabs and line breaks. */
export interface TextKind {
  multiline?: boolean;
}

/** Sequences that hold otherwise refused characters and hide nothing: emoji. Matched first. */
const EMOJI_SEQUENCES = [
  // 🏴 + tags "gbeng" / "gbsct" / "gbwls" + cancel tag: the RGI subdivision flags.
  "\\u{1F3F4}\\u{E0067}\\u{E0062}(?:\\u{E0065}\\u{E006E}\\u{E0067}|\\u{E0073}\\u{E0063}\\u{E0074}|\\u{E0077}\\u{E006C}\\u{E0073})\\u{E007F}",
  // One presentation selector after a character with an emoji form (❤️, 1️⃣ with its keycap mark).
  "\\p{Emoji}[\\u{FE0E}\\u{FE0F}]",
  // The joiner between two pictographs.
  "(?<=[\\p{Extended_Pictographic}\\u{FE0F}\\p{Emoji_Modifier}])\\u200D(?=\\p{Extended_Pictographic})",
].join("|");

/** The refused characters; the few named ones are single characters, not ranges of a category. */
const REFUSED = "[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Cs}\\p{Zl}\\p{Zp}\\p{Variation_Selector}" +
  "\\p{Default_Ignorable_Code_Point}\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u2800\\u3164\\uFFA0]";

/** Each match is either an emoji sequence (group `ok`, let through) or one refused character. */
const SCAN = {
  line: new RegExp(`(?<ok>${EMOJI_SEQUENCES})|${REFUSED}`, "gu"),
  multiline: new RegExp(`(?<ok>${EMOJI_SEQUENCES})|(?![\\t\\n\\r])${REFUSED}`, "gu"),
};

function scanOf(kind: TextKind | undefined): RegExp {
  return kind?.multiline ? SCAN.multiline : SCAN.line;
}

/** The start of the message of a refused text; the characters follow it, written out. */
export const HIDDEN_CHARS_MESSAGE = "Недопустимые символы (невидимые или управляющие):";

/** The characters named in a message at most; more are summed up as «…». */
const NAMED_MAX = 5;

/** A character written out as `<U+E0041>`: how a refusal names it, and how staff see a stored one. */
export function charName(c: string): string {
  return `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** The refused characters of the text, each once, in the order they first appear. */
export function hiddenCharsIn(text: string, kind?: TextKind): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(scanOf(kind))) if (m.groups?.ok === undefined) found.add(m[0]);
  return [...found];
}

export function hasHiddenChars(text: string, kind?: TextKind): boolean {
  return hiddenCharsIn(text, kind).length > 0;
}

/** The message naming the characters: «Недопустимые символы (невидимые или управляющие): <U+202E>». */
export function hiddenCharsMessage(chars: readonly string[]): string {
  const named = chars.slice(0, NAMED_MAX).map(charName).join(", ");
  return `${HIDDEN_CHARS_MESSAGE} ${named}${chars.length > NAMED_MAX ? ", …" : ""}`;
}

/** The message naming what the text holds of them, else null (the shape of the other checks). */
export function hiddenCharsProblem(text: string, kind?: TextKind): string | null {
  const chars = hiddenCharsIn(text, kind);
  return chars.length ? hiddenCharsMessage(chars) : null;
}

/**
 * The text with each of them written out as `<U+202E>`: for quoting a refused name back to the
 * person, and for showing staff a text stored before the rule (quoted as it is, an override would
 * turn the message around, and tags would be read by nobody but a machine). A multi-line text keeps
 * its line breaks.
 */
export function revealHiddenChars(text: string, kind?: TextKind): string {
  return text.replace(scanOf(kind), (c, ...rest) => {
    const groups = rest[rest.length - 1] as { ok?: string } | undefined;
    return groups?.ok !== undefined ? c : charName(c);
  });
}

/** The text without them: for names a sign-in provider hands over, which nobody can be asked to retype. */
export function withoutHiddenChars(text: string): string {
  return text.replace(SCAN.line, (c, ...rest) => {
    const groups = rest[rest.length - 1] as { ok?: string } | undefined;
    return groups?.ok !== undefined ? c : "";
  });
}

/**
 * Text fields whose schema does not say "string" to a reader of the schema (a `z.unknown()` that
 * checks the value itself), and the multi-line ones, by their schema: the server's check at the
 * edge (server/http/text-fields.ts) reads them; every other string field is held to one line.
 */
const TEXT_FIELDS = new WeakMap<object, TextKind>();

/** Marks a schema as a text field of this kind; `multiline` for a textarea. */
export function textField<T extends object>(schema: T, kind: TextKind = {}): T {
  TEXT_FIELDS.set(schema, kind);
  return schema;
}

/** Marks a field's schema as multi-line (a textarea): tabs and line breaks are allowed in it. */
export function multiline<T extends object>(schema: T): T {
  return textField(schema, { multiline: true });
}

/** The kind a schema was marked with, else undefined. */
export function textFieldKind(schema: object): TextKind | undefined {
  return TEXT_FIELDS.get(schema);
}
