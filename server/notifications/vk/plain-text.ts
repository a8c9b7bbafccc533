/**
 * The Telegram message as VK shows it (issue 36): VK's `messages.send` takes plain text, so the
 * Telegram HTML (message-text.ts: `<b>`, `<i>`, `<a href>`, the entities `escapeHtml` writes) is read
 * back to the text a person sees. A link keeps its address after its words when they differ. VK takes
 * up to 9,000 characters; Telegram's 4,096 already fit.
 */

export const VK_TEXT_LIMIT = 9_000;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export function telegramHtmlToPlain(html: string): string {
  const linked = html.replace(
    /<a\s+[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
    (_m, href: string, words: string) => {
      const address = decodeEntities(href);
      const shown = decodeEntities(words.replace(/<[^>]*>/g, ""));
      return (shown.trim() === address ? address : `${shown} (${address})`).replaceAll("&", "&amp;")
        .replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    },
  );
  const plain = decodeEntities(linked.replace(/<br\s*\/?>/gi, "\n").replace(/<\/?[a-z][^>]*>/gi, ""));
  return plain.length > VK_TEXT_LIMIT ? plain.slice(0, VK_TEXT_LIMIT - 1) + "…" : plain;
}
