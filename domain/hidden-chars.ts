/**
 * Characters that make a text show something other than what it holds (issue 20, decision 0205):
 * the bidi embeddings and overrides U+202A–U+202E, the bidi isolates U+2066–U+2069, the zero-width
 * characters and direction marks U+200B–U+200F, and the C1 controls U+0080–U+009F; with them the
 * other invisible format characters of the same kind: the Arabic letter mark U+061C (a bidi
 * control), the word joiner and invisible operators U+2060–U+2064, and U+FEFF.
 * `Evil - Track\u202e3pm.exe.mp3` reads as «Evil - Trackexe.mp3» to staff. Uploaded names and every
 * text field staff read refuse them; the client forms and the server's validators share this rule.
 *
 * One exception: the zero-width joiner U+200D between two pictographs (after an optional variation
 * selector or skin tone) is how emoji such as 👨‍👩‍👧 or 🏳️‍🌈 are written; it hides nothing there, and
 * refusing it would refuse ordinary emoji in a bio or a note. Anywhere else it is refused.
 */
const HIDDEN_SOURCE = "[\\u0080-\\u009f\\u061c\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff]" +
  "|(?<![\\p{Extended_Pictographic}\\u{FE0F}\\u{1F3FB}-\\u{1F3FF}])\\u200d|\\u200d(?!\\p{Extended_Pictographic})";
const HIDDEN_CHARS = new RegExp(HIDDEN_SOURCE, "u");
const HIDDEN_CHARS_ALL = new RegExp(HIDDEN_SOURCE, "gu");

/** The message of a text field other than a file name (a name says the name rule's message). */
export const HIDDEN_CHARS_MESSAGE = "Недопустимые символы: невидимые или управляющие знаки направления текста.";

export function hasHiddenChars(text: string): boolean {
  return HIDDEN_CHARS.test(text);
}

/** `HIDDEN_CHARS_MESSAGE` when the text holds one of them, else null (the shape of the other checks). */
export function hiddenCharsProblem(text: string): string | null {
  return hasHiddenChars(text) ? HIDDEN_CHARS_MESSAGE : null;
}

/**
 * The text with each of them written out as `<U+202E>`, for quoting a refused name back to the
 * person: quoted as it is, the override would turn the message itself around.
 */
export function revealHiddenChars(text: string): string {
  return text.replace(HIDDEN_CHARS_ALL, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

/** The text without them: for names a sign-in provider hands over, which nobody can be asked to retype. */
export function withoutHiddenChars(text: string): string {
  return text.replace(HIDDEN_CHARS_ALL, "");
}
