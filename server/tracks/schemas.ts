import { z } from "zod";
import { isDirection, parseDirections } from "../../domain/directions.ts";
import { hasHiddenChars, hiddenCharsProblem } from "../../domain/hidden-chars.ts";
import { INVALID_NAME_RECORD } from "../../domain/track-name.ts";
import type { AudioWarning } from "../../domain/audio-warnings.ts";
import { isReviewStatus, REVIEW_TEXTS } from "../../domain/review.ts";
import { ASSIGN_TEXTS } from "../../domain/assignment.ts";
import { WARNING_CODES } from "../processing/analysis.ts";
import { VOTE_FILTERS, type VoteFilter } from "../../domain/votes.ts";
import { AI_USE_ERRORS, AI_USE_FILTERS, type AiUseFilter, parseAiUse } from "../../domain/ai-use-desk.ts";

/**
 * The HTTP input schemas of the track calls (the admin and moderator routes, the dashboard's time
 * zone): what a request may say, checked before the tracks service is called. No table is read here.
 */

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const SORT_FIELDS = [
  "upload_date",
  "filename",
  "user",
  "downloaded",
  "id",
  // From the audio report (issue 12); tracks without one come last.
  "duration",
  "bitrate",
  "loudness",
  "bpm",
  // Issue 22: the drop, and the key in the Camelot wheel's order (1A, 1B … 12B).
  "drop",
  "key",
  // Issue 24: the sum of the votes the caller sees (decision 0230); tracks without one come last.
  "score",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

// Input schemas (shared with the moderator routes)

const MAX_SEARCH = 200;

const searchText = z
  .string()
  .max(MAX_SEARCH, "Слишком длинный поисковый запрос")
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const dateOnly = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
    const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
    if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) {
      ctx.addIssue({ code: "custom", message: "Некорректная дата: ожидается ГГГГ-ММ-ДД" });
      return z.NEVER;
    }
    return ms;
  });

const boolQuery = (message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim().toLowerCase();
      if (s === undefined || s === "" || s === "all") return undefined;
      if (s === "true" || s === "1" || s === "downloaded") return true;
      if (s === "false" || s === "0" || s === "not_downloaded") return false;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });

const positiveIntQuery = (message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      if (!/^\d{1,9}$/.test(v.trim()) || Number(v) < 1) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return Number(v);
    });

/** Minutes east of UTC of the viewer (Moscow = 180), i.e. `-new Date().getTimezoneOffset()`. */
export const tzOffsetQuery = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return 0;
    if (!/^-?\d{1,3}$/.test(v.trim()) || Math.abs(Number(v)) > 14 * 60) {
      ctx.addIssue({ code: "custom", message: "Некорректный часовой пояс" });
      return z.NEVER;
    }
    return Number(v);
  });

export const trackListQuerySchema = z.object({
  filename: searchText,
  user: searchText,
  date: dateOnly,
  direction: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (!isDirection(v)) {
        ctx.addIssue({ code: "custom", message: "Неизвестное направление" });
        return z.NEVER;
      }
      return v;
    }),
  downloaded: boolQuery("Некорректное значение фильтра статуса"),
  /** A warning code (domain/audio-warnings.ts), or `any` for tracks with at least one warning. */
  warning: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (v !== "any" && !(WARNING_CODES as string[]).includes(v)) {
        ctx.addIssue({ code: "custom", message: "Неизвестное предупреждение" });
        return z.NEVER;
      }
      return v as AudioWarning | "any";
    }),
  /**
   * A review state (issue 13): tracks with a direction in that state, within `direction` when it
   * is given, else within the caller's scope. `all` or empty means no filter. `awaiting` (issue 23):
   * new or listened, a decision still to make. `overdue` (issue 24, decision 0228): awaiting and
   * uploaded more than OVERDUE_AFTER_DAYS ago, as the dashboards' overdue count counts.
   */
  review: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (v === "awaiting" || v === "overdue") return v;
      if (!isReviewStatus(v)) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.unknownReviewFilter });
        return z.NEVER;
      }
      return v;
    }),
  /** `me`: the tracks with a pair assigned to the caller, «Мне назначено» (issue 24, decision 0233). */
  assigned: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (v !== "me") {
        ctx.addIssue({ code: "custom", message: ASSIGN_TEXTS.badAssignedFilter });
        return z.NEVER;
      }
      return v;
    }),
  /**
   * Staff votes (issue 24, decision 0230), within `direction` when given, else the caller's scope:
   * `second_ear` (a pair not decided with exactly one vote, or both 👍 and 👎), `positive` or
   * `negative` (the score the caller sees), `none` (nobody has voted). `all` or empty: no filter.
   */
  votes: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (!(VOTE_FILTERS as readonly string[]).includes(v)) {
        ctx.addIssue({ code: "custom", message: "Неизвестный фильтр голосов" });
        return z.NEVER;
      }
      return v as VoteFilter;
    }),
  /**
   * The artist's answer to the AI question (issue 25, decision 0245): `no`, `partly`, `yes`, or
   * `none` for tracks without an answer. `all` or empty: no filter.
   */
  ai_use: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (!(AI_USE_FILTERS as readonly string[]).includes(v)) {
        ctx.addIssue({ code: "custom", message: AI_USE_ERRORS.badFilter });
        return z.NEVER;
      }
      return v as AiUseFilter;
    }),
  /** `upload_date`, `-upload_date`, `filename`, ... (a leading minus sorts descending). */
  sort: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const field = v.replace(/^[-+]/, "");
      if (!(SORT_FIELDS as readonly string[]).includes(field)) {
        ctx.addIssue({ code: "custom", message: "Некорректное поле сортировки" });
        return z.NEVER;
      }
      return { field: field as SortField, desc: v.startsWith("-") ? true : undefined };
    }),
  order: z
    .enum(["asc", "desc"], { message: "Некорректный порядок сортировки" })
    .optional(),
  page: positiveIntQuery("Некорректный номер страницы"),
  page_size: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const n = Number(v);
      if (!(PAGE_SIZES as readonly number[]).includes(n)) {
        ctx.addIssue({ code: "custom", message: "Размер страницы: 10, 25, 50 или 100" });
        return z.NEVER;
      }
      return n;
    }),
  tz_offset: tzOffsetQuery,
});

export type TrackListQuery = z.output<typeof trackListQuerySchema>;

/**
 * The AI question's answer in a JSON body (the resumable start of issue 26): absent or null is no
 * answer, `no` `partly` `yes` exactly, anything else a 400 with the upload's own message.
 */
export const aiUseInput = z.unknown().transform((v, ctx) => {
  const parsed = parseAiUse(v);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  }
  return parsed.value;
});

/** Directions as a comma string (or an array) of known codes; conflicts are refused. */
export const directionsInput = z
  .union([z.string().max(500), z.array(z.string().max(100)).max(20), z.null()])
  .transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(",")).map((s) => s.trim()).filter(Boolean);
    const unknown = list.find((s) => !isDirection(s));
    if (unknown !== undefined) {
      ctx.addIssue({ code: "custom", message: "Неизвестное направление" });
      return z.NEVER;
    }
    return parseDirections(list.join(","));
  });

const boolBody = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]), z.literal(1), z.literal(0)])
  .transform((v) => v === true || v === "true" || v === "1" || v === 1);

const userIdInput = z
  .union([z.number(), z.string().max(20), z.null()])
  .transform((v, ctx) => {
    if (v === null || (typeof v === "string" && v.trim() === "")) return null;
    const n = typeof v === "number" ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: "custom", message: "ID пользователя должен быть числом" });
      return z.NEVER;
    }
    return n;
  });

const optionalText = (max: number, message: string) =>
  z
    .union([z.string().max(max, message), z.null()])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === "" ? null : v.trim()))
    .superRefine((v, ctx) => {
      const hidden = v ? hiddenCharsProblem(v) : null;
      if (hidden) ctx.addIssue({ code: "custom", message: hidden });
    });

const dateTimeInput = z
  .union([z.string().max(40), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === "") return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970 || d.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: "custom", message: "Некорректная дата загрузки" });
      return z.NEVER;
    }
    return d;
  });

/** The admin form (spec 2 §7: filename, user_id, guest_username, upload_date, directions, downloaded). */
export const trackInputSchema = z.object({
  filename: z
    .string({ message: "Имя файла обязательно" })
    .trim()
    .min(1, "Имя файла обязательно")
    .max(255, "Имя файла слишком длинное")
    // The upload name rule's word for a name that hides or turns text around (issue 20).
    .refine((v) => !hasHiddenChars(v), INVALID_NAME_RECORD),
  user_id: userIdInput.optional(),
  guest_username: optionalText(100, "Имя гостя слишком длинное"),
  upload_date: dateTimeInput,
  directions: directionsInput.optional(),
  downloaded: boolBody.optional(),
});

/** An update: the same payload, but filename and upload date of an existing track stay as they are. */
export const trackUpdateSchema = trackInputSchema.extend({
  filename: z.string().max(1000).optional(),
});

/** What a moderator may change (issue 7). */
export const trackModerationSchema = z.object({
  directions: directionsInput.optional(),
  downloaded: boolBody.optional(),
});

export type TrackInput = z.output<typeof trackInputSchema>;
export type TrackUpdate = z.output<typeof trackUpdateSchema>;
export type TrackModeration = z.output<typeof trackModerationSchema>;
