/**
 * The cases of the hidden-characters rule (issue 32, decision 0305), shared by its own test
 * (domain/hidden-chars.test.ts) and the table over every text field of the API
 * (server/hidden-text-fields.test.ts). Test data only: no screen or route imports it.
 */

/**
 * What the audit of issue 32 sent, and each category's edges (decision 0305): every one is refused
 * in a one-line field and in a multi-line one, and named in the message.
 */
export const REFUSED_CHARS: readonly number[] = [
  // Cc: C0 (NUL, BEL, ESC, DEL) and C1.
  0x0000,
  0x0007,
  0x001b,
  0x007f,
  0x0080,
  0x0085,
  0x009f,
  // Cf: soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width, bidi, word joiner, BOM, tags.
  0x00ad,
  0x061c,
  0x180e,
  0x200b,
  0x200c,
  0x200e,
  0x200f,
  0x202a,
  0x202e,
  0x2060,
  0x2066,
  0x2069,
  0xfeff,
  0xfff9,
  0xe0001,
  0xe0020,
  0xe0041,
  0xe007f,
  // Co and Cn (noncharacters and unassigned).
  0xe000,
  0xf8ff,
  0xf0000,
  0x10fffd,
  0xfdd0,
  0xfffe,
  0xffff,
  0x1fffe,
  0x0378,
  0xe0000,
  // Line and paragraph separators.
  0x2028,
  0x2029,
  // Variation selectors outside emoji.
  0xfe00,
  0xfe0f,
  0xe0100,
  0xe01ef,
  0x180b,
  // Blank-looking letters.
  0x115f,
  0x1160,
  0x3164,
  0xffa0,
  0x2800,
  0x17b4,
  0x17b5,
  0x034f,
];

/** Letters and emoji sequences that hide nothing. */
export const ALLOWED_TEXTS: readonly string[] = [
  "Привет, мир",
  "Hello, Café Ñandú",
  "東京の夜 中文 한국어",
  "مرحبا بالعالم",
  "👨\u200d👩\u200d👧",
  "🏳\ufe0f\u200d🌈",
  "1\ufe0f\u20e3 #\ufe0f\u20e3",
  "👍🏽 👩🏽\u200d💻",
  "❤️ ☺︎ 🇷🇺",
  // England, Scotland and Wales: 🏴 with tag letters and the cancel tag.
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}",
];
