import { z } from "zod";

/** The HTTP inputs of the episode desk's calls (issue 35); messages in Russian like every answer. */

const direction = z.string({ error: "Укажите передачу (direction)" }).max(40);
const number = z.number({ error: "Номер выпуска — целое число от 1" }).int("Номер выпуска — целое число от 1")
  .min(1, "Номер выпуска — целое число от 1").max(1_000_000, "Слишком большой номер выпуска");
const title = z.string({ error: "Название выпуска обязательно" }).trim().min(1, "Название выпуска обязательно")
  .max(200, "Название выпуска длиннее 200 символов");
const day = z.string({ error: "Дата эфира — ГГГГ-ММ-ДД" }).regex(/^\d{4}-\d{2}-\d{2}$/, "Дата эфира — ГГГГ-ММ-ДД")
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: "Дата эфира — ГГГГ-ММ-ДД",
    },
  );
const id = z.number({ error: "Некорректный track_id" }).int("Некорректный track_id").min(1, "Некорректный track_id")
  .max(Number.MAX_SAFE_INTEGER, "Некорректный track_id");

export const episodeCreateSchema = z.object({
  direction,
  /** Left out: the direction's last number + 1. */
  number: number.optional(),
  title,
  air_date: day,
});

export const episodeUpdateSchema = z.object({
  title: title.optional(),
  air_date: day.optional(),
  number: number.optional(),
  revision: z.number({ error: "Укажите revision" }).int().min(0),
});

const flag = z.enum(["true", "false", "1", "0"], { error: "aired — true или false" });

export const episodeListSchema = z.object({
  direction: direction.optional(),
  from: day.optional(),
  to: day.optional(),
  aired: flag.optional(),
});

export const poolQuerySchema = z.object({ direction });

export const runningOrderSchema = z.object({
  items: z.array(
    z.object({
      track_id: id,
      note: z.string().trim().max(500, "Заметка длиннее 500 символов").nullable().optional(),
    }),
    { error: "items — список треков" },
  ).max(200, "Не больше 200 треков в выпуске"),
  /** Optional: when given, a stale revision is 409. */
  revision: z.number().int().min(0).optional(),
});

export const suggestOrderSchema = z.object({ first_track_id: id.optional() });

const httpUrl = z.string({ error: "Укажите ссылку на выпуск (url)" }).trim().max(2000, "Слишком длинная ссылка")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
    } catch {
      return false;
    }
  }, { message: "Ссылка на выпуск — только http(s)" });

export const airedSchema = z.object({
  aired_at: z.string({ error: "aired_at — дата и время ISO 8601" }).datetime({
    offset: true,
    message: "aired_at — дата и время ISO 8601",
  }),
  url: httpUrl,
  cues: z.array(z.object({
    track_id: id,
    at_s: z.number({ error: "at_s — секунды от начала выпуска" }).int("at_s — целое число секунд")
      .min(0, "at_s — секунды от начала выпуска").max(86_400, "at_s больше суток"),
  })).max(200).optional(),
});
