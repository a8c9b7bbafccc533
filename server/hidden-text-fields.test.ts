import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charName, HIDDEN_CHARS_MESSAGE, hiddenCharsMessage } from "../domain/hidden-chars.ts";
import { ALLOWED_TEXTS, REFUSED_CHARS } from "../domain/hidden-chars.cases.ts";
import { INVALID_NAMES_MESSAGE } from "../domain/track-name.ts";
import { MALFORMED_MESSAGE } from "./uploads/receive-upload.ts";
import { declaredInput } from "./http/validate.ts";
import { opaqueFieldsOf, type TextField, textFieldsOf } from "./http/text-fields.ts";
import { type StaffFixture, staffFixture } from "./testing/staff-test-kit.ts";
import { allTracks, dirPart, filePart, postUpload } from "./testing/upload-helpers.ts";

/**
 * Issue 32, item 4 (decision 0305): every text field of the API, found from the input schemas its
 * routes declare (`validate`, `declareInput`) — so a new field or route is covered without being
 * listed here — refuses each hidden character with 400 naming it, and lets letters of every script
 * and whole emoji through. Tabs and line breaks pass only in the fields marked multi-line.
 */

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture({ env: { AUTH_RATE_LIMIT_PER_MIN: "1000000" } });
});
afterAll(() => f.close());

interface Case {
  method: string;
  path: string;
  target: string;
  field: TextField;
}

/**
 * Places where a schema takes any value and checks it by hand, known not to be text: numbers,
 * flags and fixed words (a text field there would have to be marked `textField()`); `*` is the
 * intake rules' loose record in front of their own fields.
 */
const NOT_TEXT = new Set([
  "*",
  "outcome",
  "ai_use",
  "at_s",
  "end_s",
  "shared",
  "status",
  "template_id",
  "revision",
  "revisions.*",
  "overrides.*.status",
  "overrides.*.template_id",
  "vote",
]);

function cases(): Case[] {
  const seen = new Set<string>();
  const out: Case[] = [];
  for (const r of f.t.app.routes) {
    const input = declaredInput(r.handler);
    if (!input || (input.target !== "json" && input.target !== "form")) continue;
    const key = `${r.method} ${r.path} ${input.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const opaque of opaqueFieldsOf(input.schema)) {
      expect(NOT_TEXT.has(opaque), `${key}: "${opaque}" takes any value; mark it textField() if it is text`)
        .toBe(true);
    }
    for (const field of textFieldsOf(input.schema)) {
      out.push({ method: r.method, path: r.path, target: input.target, field });
    }
  }
  return out;
}

/** A path's parameters filled: ids that exist nowhere (the body is refused before any is read). */
const url = (path: string) =>
  path.replace(/:direction(\{[^}]*\})?/g, "label_koster").replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "999999");

function bodyOf(field: TextField, text: string): unknown {
  let value: unknown = text;
  for (let i = field.path.length - 1; i >= 0; i--) {
    value = field.path[i] === "*" ? [value] : { [field.path[i]]: value };
  }
  return value;
}

async function send(c: Case, text: string) {
  const headers = c.path.startsWith("/api/moderator/") ? f.as.moderator : f.as.admin;
  if (c.target === "form") {
    const form = new FormData();
    form.set(c.field.path.join("."), text);
    return await f.call(c.method, url(c.path), { headers, body: form });
  }
  return await f.call(c.method, url(c.path), { headers, json: bodyOf(c.field, text) });
}

const label = (c: Case) => `${c.method} ${c.path} ${c.field.path.join(".")}`;

describe("every text field of the API", () => {
  it("is found from the routes' schemas, the fields the audit used among them", () => {
    const found = new Set(cases().map(label));
    for (
      const expected of [
        "POST /api/admin/tracks/:id/comments text",
        "PUT /api/admin/tracks/:id/votes/:direction word",
        "PUT /api/admin/tracks/:id/decisions/:direction note",
        "PUT /api/admin/tracks/:id/decisions/:direction message",
        "PUT /api/admin/intake/:direction pause_message",
        "POST /api/profile/update city",
        "POST /api/upload/resumable filename",
        "POST /api/admin/faq answer",
        "POST /api/admin/decline-templates text",
        "POST /api/admin/slider track_url",
        "PUT /api/admin/users/:id bio",
        "POST /api/moderator/tracks/:id/comments text",
      ]
    ) expect([...found].some((l) => l.replace(/\{[^}]*\}/g, "") === expected), expected).toBe(true);
    expect(found.size).toBeGreaterThan(40);
  });

  it("refuses each hidden character with 400 naming it", async () => {
    const failures: string[] = [];
    const all = cases();
    for (const c of all) {
      const refused = [...REFUSED_CHARS.map((n) => String.fromCodePoint(n))];
      if (!c.field.multiline) refused.push("\t", "\n", "\r");
      for (const ch of refused) {
        const r = await send(c, `Ок${ch}ок`);
        // A form's encoding writes every line break as CR LF.
        const named = c.target === "form" && (ch === "\n" || ch === "\r") ? ["\r", "\n"] : [ch];
        if (r.status !== 400 || r.body.error !== hiddenCharsMessage(named)) {
          failures.push(`${label(c)} ${charName(ch)} → ${r.status} ${r.body.error}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it(
    "lets letters of every script and whole emoji through, and line breaks where the field is multi-line",
    async () => {
      const failures: string[] = [];
      for (const c of cases()) {
        const texts = [...ALLOWED_TEXTS];
        if (c.field.multiline) texts.push("Строка\nвторая\tс табом\r\n");
        for (const text of texts) {
          const r = await send(c, text);
          if (r.status >= 500 || String(r.body.error ?? "").startsWith(HIDDEN_CHARS_MESSAGE)) {
            failures.push(`${label(c)} ${JSON.stringify(text)} → ${r.status} ${r.body.error}`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
    240_000,
  );

  it("refuses them in uploaded file names, naming the name with the character written out", async () => {
    const before = (await allTracks(f.t)).length;
    for (const n of REFUSED_CHARS) {
      const ch = String.fromCodePoint(n);
      const { res, body } = await postUpload(f.t, f.as.plain, [
        filePart(`Artist - Ti${ch}tle.mp3`),
        dirPart("label_koster"),
      ]);
      expect(res.status, charName(ch)).toBe(400);
      // A C0 control or DEL cannot stand in a multipart part's header at all: the reader refuses the
      // request before any name is read (the resumable upload's JSON name above names it).
      expect(body.error, charName(ch)).toBe(
        n < 0x20 || n === 0x7f ? MALFORMED_MESSAGE : `${INVALID_NAMES_MESSAGE} Artist - Ti${charName(ch)}tle.mp3`,
      );
    }
    expect((await allTracks(f.t)).length).toBe(before);
  });
});
