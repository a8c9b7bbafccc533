import { csvText } from "../lib/csv.ts";
import { downloadZip } from "client-zip";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { releaseMaterials } from "../../db/schema.ts";
import { asciiName } from "../../domain/ascii-name.ts";
import { AUTHOR_ROLES, isLabelDirection, LABEL_NAMES } from "../../domain/releases.ts";
import type { LabelCopy } from "../../domain/release-schemas.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { notFound } from "../lib/http-error.ts";
import { artistsOf, type ReleaseRow, titleOf } from "./views.ts";

/**
 * What a distributor takes (issue 34): the label copy as CSV (UTF-8 with a BOM, so spreadsheet
 * programs read the Cyrillic; one row per recording, the columns below exactly), and the files as a
 * stored ZIP named in ASCII by domain/ascii-name.ts (ICAO 9303) with label-copy.csv inside.
 */
export const CSV_COLUMNS = [
  "Label",
  "Catalogue number",
  "Release date",
  "Title",
  "Version",
  "Artists",
  "Featuring",
  "Remixers",
  "Authors with shares",
  "ISRC",
  "Duration",
  "BPM",
  "Key",
  "Explicit",
] as const;

/** The export's names are ASCII already (asciiName, catalogue numbers): a plain attachment header. */
function contentDisposition(name: string): string {
  return `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"`;
}

/** m:ss of seconds. */
export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The master's duration when its check measured one, else the demo's. */
function durationOf(row: ReleaseRow, masterSeconds: number | null): string {
  return duration(masterSeconds ?? row.duration_s);
}

/** «Name (music) 50%; Name (lyrics) 50%». */
export function authorsCell(copy: LabelCopy | null): string {
  if (!copy) return "";
  return copy.authors.map((a) => `${a.name} (${AUTHOR_ROLES.includes(a.role) ? a.role : ""}) ${a.share}%`).join("; ");
}

export function csvRow(row: ReleaseRow, masterSeconds: number | null = null): string[] {
  const copy = row.r.label_copy as LabelCopy | null;
  return [
    isLabelDirection(row.r.direction) ? LABEL_NAMES[row.r.direction] : row.r.direction,
    row.r.catalogue_number ?? "",
    row.r.release_date ?? "",
    titleOf(row),
    row.r.version ?? "",
    artistsOf(row).join(", "),
    (copy?.featuring ?? []).join(", "),
    (copy?.remixers ?? []).join(", "),
    authorsCell(copy),
    row.r.isrc ?? "",
    durationOf(row, masterSeconds),
    row.bpm === null ? "" : String(Math.round(row.bpm)),
    row.musical_key ?? "",
    "no",
  ];
}

/** The CSV text with its BOM, CRLF line ends (RFC 4180). */
export function labelCopyCsv(rows: readonly string[][]): string {
  return csvText([[...CSV_COLUMNS], ...rows]);
}

export function csvResponse(text: string, name: string): Response {
  return new Response(text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(name),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const EXTRA_VERSION = { extended: "Extended Mix", instrumental: "Instrumental" } as const;

/** `{CAT} - {Artist} - {Title} ({Version}).wav` in ASCII (the extension the file came with). */
export function releaseFileName(
  p: { catalogue: string | null; artists: readonly string[]; title: string; version: string | null },
  kind: "master" | "extended" | "instrumental",
  original: string,
): string {
  const ext = /\.(wav|flac|aiff?|aif)$/i.exec(original)?.[0].toLowerCase() ?? ".wav";
  const version = kind === "master" ? (p.version ?? "Original Mix") : EXTRA_VERSION[kind];
  const parts = [p.catalogue, p.artists.join(", "), p.title].filter((x): x is string => Boolean(x));
  return asciiName(`${parts.join(" - ")} (${version})`) + ext;
}

/** The master's measured duration (the materials check's report), when there is one. */
function reportSeconds(report: unknown): number | null {
  const r = report as { duration_s?: unknown; duration?: unknown } | null;
  const v = r?.duration_s ?? r?.duration;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export async function masterSeconds(db: Db, releaseId: number): Promise<number | null> {
  const [m] = await db.select({ report: releaseMaterials.report }).from(releaseMaterials)
    .where(and(eq(releaseMaterials.release_id, releaseId), eq(releaseMaterials.kind, "master"))).limit(1);
  return m ? reportSeconds(m.report) : null;
}

/** GET …/releases/{id}/files.zip: the accepted files, then label-copy.csv; stored, streamed file by file. */
export async function filesZip(db: Db, storage: FileStorage, row: ReleaseRow, now: Date): Promise<Response> {
  const files = await db.select().from(releaseMaterials)
    .where(and(eq(releaseMaterials.release_id, row.r.id), eq(releaseMaterials.state, "accepted")));
  const order = ["master", "extended", "instrumental"];
  files.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const stats = await Promise.all(files.map((f) => storage.stat(f.storage_key)));
  const present = files.filter((_, i) => stats[i]);
  if (present.length === 0) throw notFound("У релиза ещё нет принятых файлов");
  const naming = {
    catalogue: row.r.catalogue_number,
    artists: artistsOf(row),
    title: titleOf(row),
    version: row.r.version,
  };
  const csv = new TextEncoder().encode(labelCopyCsv([csvRow(row, await masterSeconds(db, row.r.id))]));
  const entries = present.map((f) => ({
    name: releaseFileName(naming, f.kind, f.filename),
    size: stats[files.indexOf(f)]!.size,
    key: f.storage_key,
  }));
  async function* inputs() {
    for (const e of entries) {
      const { body } = await storage.read(e.key);
      yield { name: e.name, input: body, size: e.size, lastModified: now };
    }
    yield { name: "label-copy.csv", input: csv, size: csv.byteLength, lastModified: now };
  }
  const zip = downloadZip(inputs(), {
    metadata: [...entries, { name: "label-copy.csv", size: csv.byteLength }].map((e) => ({
      name: e.name,
      size: e.size,
    })),
  });
  const headers = new Headers(zip.headers);
  headers.set("Content-Type", "application/zip");
  headers.set("Cache-Control", "no-store");
  headers.set(
    "Content-Disposition",
    contentDisposition(asciiName(`${row.r.catalogue_number ?? `release-${row.r.id}`}`) + ".zip"),
  );
  return new Response(zip.body, { headers });
}
