/**
 * FAQ answer text helpers shared by the admin and moderator FAQ screens.
 *
 * The admin editor takes plain text in which a blank line starts a new paragraph and a single newline
 * is a line break (spec 2 "Admin FAQ"); it stores the HTML that the preview shows, so the public FAQ
 * page renders exactly what was previewed. `answerToText` turns stored HTML back into that text for
 * editing (see docs/decisions/0050-faq-answer-text-format.md).
 */

const BLOCK_START = /^<(p|ul|ol|div|blockquote|h[1-6])[\s>]/i;

/** Text → HTML: blank line = paragraph, single newline = <br>. Basic HTML inside is kept. */
export function formatAnswer(text: string): string {
  const normalised = text.replace(/\r\n?/g, "\n").trim();
  if (!normalised) return "";
  return normalised
    .split(/\n[ \t]*\n+/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => (BLOCK_START.test(block) ? block : `<p>${block.replace(/[ \t]*\n[ \t]*/g, "<br>")}</p>`))
    .join("");
}

/**
 * The server's sanitiser stores `&` as `&amp;` and `"` as `&quot;`; the editor shows the characters
 * (an admin who typed "drum&bass" must not find "drum&amp;bass" when editing again). `&lt;`/`&gt;`
 * stay encoded, and so does an `&amp;` that starts another entity's text, so saving again gives
 * the same answer. Tags (and their attribute values) are left untouched.
 */
function decodeTextEntities(html: string): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) =>
      part.startsWith("<") ? part : part
        .replace(/&quot;/g, '"')
        .replace(/&(#39|#x27|apos);/gi, "'")
        .replace(/&nbsp;/g, "\u00a0")
        .replace(/&amp;(?![a-z][a-z0-9]*;|#\d+;|#x[0-9a-f]+;)/gi, "&")
    )
    .join("");
}

/** Stored HTML → editable text (inverse of formatAnswer for the HTML it produces). */
export function answerToText(stored: string): string {
  const html = decodeTextEntities(stored);
  if (!/<\/?(p|br)[\s/>]/i.test(html)) return html;
  return html
    .replace(/\r\n?/g, "\n")
    .replace(/\s*<br\s*\/?>\s*/gi, "\n")
    .replace(/<p(\s[^>]*)?>/gi, "")
    .replace(/<\/p>/gi, "\n\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The answer as plain text (tags removed, entities decoded, whitespace collapsed). */
export function answerPlainText(html: string): string {
  const spaced = html.replace(/<br\s*\/?>|<\/(p|li|div|h[1-6])>/gi, " ").replace(/<[^>]*>/g, "");
  const decoded = typeof DOMParser === "undefined"
    ? spaced
    : new DOMParser().parseFromString(`<!doctype html><body>${spaced}`, "text/html").body.textContent ?? "";
  return decoded.replace(/\s+/g, " ").trim();
}

export const FAQ_TRUNCATE_AT = 150;

/** The list preview: the first 150 characters plus an ellipsis when longer. */
export function truncateAnswer(html: string, max = FAQ_TRUNCATE_AT): string {
  const text = answerPlainText(html);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

const ALLOWED = new Set(["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a"]);
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "svg",
  "math",
]);

/**
 * The preview runs what the admin types through the same allow-list the server applies
 * (paragraphs, breaks, emphasis, lists, http/https/mailto links), so the preview cannot run script
 * and shows what will be stored.
 */
export function sanitizeAnswerHtml(html: string): string {
  if (typeof DOMParser === "undefined") return "";
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, "text/html");
  const clean = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) continue;
      if (child.nodeType !== 1) {
        child.parentNode?.removeChild(child);
        continue;
      }
      const el = child as Element;
      const tag = el.tagName.toLowerCase();
      if (DROP_WITH_CONTENT.has(tag)) {
        el.remove();
        continue;
      }
      clean(el);
      if (!ALLOWED.has(tag)) {
        el.replaceWith(...Array.from(el.childNodes));
        continue;
      }
      const href = tag === "a" ? el.getAttribute("href")?.trim() ?? "" : "";
      for (const attr of Array.from(el.attributes)) el.removeAttribute(attr.name);
      if (tag === "a" && /^(https?:|mailto:)/i.test(href)) {
        el.setAttribute("href", href);
        el.setAttribute("target", "_blank");
        el.setAttribute("rel", "noopener noreferrer");
      }
    }
  };
  clean(doc.body);
  return doc.body.innerHTML;
}

export interface FaqFormValue {
  order: string;
  question: string;
  answer: string;
}

/** Order is a whole number of at least 1; question and answer are not blank. */
export function faqOrderValid(order: string): boolean {
  return /^\s*\d+\s*$/.test(order) && Number(order) >= 1;
}

export function faqFormValid(v: FaqFormValue): boolean {
  return faqOrderValid(v.order) && v.question.trim() !== "" && v.answer.trim() !== "";
}

/** A new entry goes after the last one: maximum order + 1, or 1 for the first. */
export function nextFaqOrder(items: ReadonlyArray<{ order: number }>): number {
  return items.reduce((max, f) => Math.max(max, Number(f.order) || 0), 0) + 1;
}
