/**
 * The release desk's input schemas (issue 34): the label copy and a staff change, each field checked
 * with its reason. Apart from domain/releases.ts so the artist's pages, which read only its constants
 * and texts, do not carry zod into the public bundle.
 */
import { z } from "zod";
import { multiline } from "./hidden-chars.ts";
import {
  AUTHOR_ROLES,
  CATALOGUE_NUMBER_RULE,
  isCalendarDate,
  LABEL_COPY_LIMITS,
  normalIsrc,
  RELEASE_STAGE_LIST,
  RELEASE_TEXTS,
  type ReleaseStage,
  sharesTotal,
} from "./releases.ts";

const line = (label: string, max: number) =>
  z.string({ message: `${label}: ожидается текст` }).transform((v) => v.trim())
    .refine((v) => v.length > 0, { message: `${label}: не может быть пустым` })
    .refine((v) => v.length <= max, { message: `${label}: не длиннее ${max} символов` });

const optionalLine = (label: string, max: number) =>
  z.union([z.string(), z.null()], { message: `${label}: ожидается текст или null` })
    .transform((v) => (v === null || v.trim() === "" ? null : v.trim()))
    .refine((v) => v === null || v.length <= max, { message: `${label}: не длиннее ${max} символов` });

const people = (label: string, min: number) =>
  z.array(line(label, LABEL_COPY_LIMITS.name), { message: `${label}: ожидается список имён` })
    .min(min, { message: `${label}: укажите хотя бы одно имя` })
    .max(LABEL_COPY_LIMITS.people, { message: `${label}: не больше ${LABEL_COPY_LIMITS.people} имён` });

const share = z.number({ message: "authors: доля — число" }).finite()
  .refine((v) => v > 0, { message: "authors: доля каждого автора больше нуля" })
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    message: "authors: доля — не больше двух знаков после запятой",
  });

const author = z.object({
  name: line("authors: имя автора", LABEL_COPY_LIMITS.name),
  role: z.enum(AUTHOR_ROLES, { message: "authors: роль — music, lyrics или both" }),
  share,
}, { message: "authors: ожидается {name, role, share}" });

/** PUT /api/releases/{id}/label-copy: the whole label copy, each field checked with its reason. */
export const labelCopySchema = z.object({
  title: line("title", LABEL_COPY_LIMITS.title),
  version: optionalLine("version", LABEL_COPY_LIMITS.version),
  artists: people("artists", 1),
  featuring: people("featuring", 0).default([]),
  remixers: people("remixers", 0).default([]),
  authors: z.array(author, { message: "authors: ожидается список авторов" })
    .min(1, { message: "authors: укажите хотя бы одного автора" })
    .max(LABEL_COPY_LIMITS.people, { message: `authors: не больше ${LABEL_COPY_LIMITS.people} авторов` })
    .superRefine((list, ctx) => {
      const total = sharesTotal(list.map((a) => a.share));
      if (total !== 100) ctx.addIssue({ code: "custom", message: RELEASE_TEXTS.sharesTotal(total) });
    }),
  samples: z.object({
    used: z.boolean({ message: "samples.used: ожидается true или false" }),
    cleared: z.boolean({ message: "samples.cleared: ожидается true или false" }),
    details: multiline(
      z.union([z.string(), z.null()], { message: "samples.details: ожидается текст" })
        .transform((v) => (v ?? "").trim())
        .refine((v) => v.length <= LABEL_COPY_LIMITS.details, {
          message: `samples.details: не длиннее ${LABEL_COPY_LIMITS.details} символов`,
        }),
    ).default(""),
  }, { message: "samples: ожидается {used, cleared, details}" }).superRefine((s, ctx) => {
    if (s.used && s.details === "") {
      ctx.addIssue({ code: "custom", message: "samples.details: опишите, какие сэмплы использованы и откуда" });
    }
    if (!s.used && s.cleared) {
      ctx.addIssue({ code: "custom", message: "samples.cleared: сэмплы не использованы — разрешать нечего" });
    }
  }),
  isrc: z.union([z.string(), z.null()], { message: "isrc: ожидается текст или null" }).default(null)
    .transform((v, ctx) => {
      if (v === null || v.trim() === "") return null;
      const isrc = normalIsrc(v);
      if (!isrc) {
        ctx.addIssue({ code: "custom", message: "isrc: ожидается вид CC-XXX-YY-NNNNN, например RU-A12-26-00001" });
        return z.NEVER;
      }
      return isrc;
    }),
}).strict();

export type LabelCopy = z.output<typeof labelCopySchema>;

/** Is the label copy complete for release: saved whole, and any samples cleared. */
export function labelCopyComplete(copy: LabelCopy | null): boolean {
  return copy !== null && (!copy.samples.used || copy.samples.cleared);
}

/** PATCH …/releases/{id} (staff): any of the fields, with the revision read. */
export const releasePatchSchema = z.object({
  stage: z.enum(RELEASE_STAGE_LIST as [ReleaseStage, ...ReleaseStage[]], { message: "stage: неизвестная стадия" })
    .optional(),
  catalogue_number: z.union([z.string(), z.null()], { message: "catalogue_number: ожидается текст или null" })
    .transform((v) => (v === null || v.trim() === "" ? null : v.trim().toUpperCase()))
    .refine((v) => v === null || CATALOGUE_NUMBER_RULE.test(v), {
      message: "catalogue_number: латинские заглавные и цифры, например NPR001",
    }).optional(),
  release_date: z.union([z.string(), z.null()], { message: "release_date: ожидается дата ГГГГ-ММ-ДД или null" })
    .refine((v) => v === null || isCalendarDate(v), { message: "release_date: ожидается дата ГГГГ-ММ-ДД" })
    .optional(),
  title: optionalLine("title", LABEL_COPY_LIMITS.title).optional(),
  version: optionalLine("version", LABEL_COPY_LIMITS.version).optional(),
  note: multiline(optionalLine("note", 2000)).optional(),
  revision: z.number({ message: "revision: ожидается номер ревизии" }).int().min(0),
}).strict().refine((v) => Object.keys(v).length > 1, { message: RELEASE_TEXTS.nothingToChange });

export type ReleasePatch = z.output<typeof releasePatchSchema>;
