import sanitizeHtml from "sanitize-html";

/**
 * FAQ answers keep basic HTML (spec 2 §3) and are cleaned on save: paragraphs, line breaks,
 * emphasis, lists, and links to http, https or mailto only. Every link opens in a new tab without
 * access to the opener. Script and style contents are dropped, not shown as text.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href", "target", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = { target: "_blank", rel: "noopener noreferrer nofollow" };
      if (attribs.href !== undefined) out.href = attribs.href;
      return { tagName, attribs: out };
    },
  },
};

export function sanitizeAnswer(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
