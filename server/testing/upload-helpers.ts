import { tracks } from "../../db/schema.ts";
import type { TestApp } from "./create-test-app.ts";
import { multipartBody, type Part } from "./multipart-body.ts";

/** The MP3 fixtures (test/fixtures/audio, described in test/fixtures/README.md). */
export const FIXTURES_DIR = new URL("../../test/fixtures/audio/", import.meta.url);

export const FIXTURES = {
  amen: "Test Artist - Amen Study.mp3",
  low: "Low Rate - 128 kbps.mp3",
  vbr: "VBR Artist - Variable.mp3",
  mono: "Mono Artist - 48k Mono.mp3",
  cut: "Cut Artist - Truncated.mp3",
  wave: "Wave Artist - Renamed Wave.mp3",
  text: "Text Artist - Not Audio.mp3",
} as const;

export function fixture(name: string): Uint8Array {
  return Deno.readFileSync(new URL(encodeURIComponent(name), FIXTURES_DIR));
}

export function filePart(filename: string, data: Uint8Array = fixture(FIXTURES.amen), type = "audio/mpeg"): Part {
  return { name: "files", filename, type, data };
}

export function dirPart(code: string): Part {
  return { name: "directions", value: code };
}

/** POSTs a hand-built multipart stream to /api/upload. */
export async function postUpload(t: TestApp, headers: Record<string, string>, parts: Part[]) {
  const mp = multipartBody(parts);
  const res = await t.app.request("/api/upload", {
    method: "POST",
    headers: {
      ...headers,
      "content-type": mp.contentType,
      ...(mp.contentLength !== null ? { "content-length": String(mp.contentLength) } : {}),
    },
    body: mp.body,
    duplex: "half",
  } as RequestInit);
  return { res, body: await res.json() };
}

/** Every file under the private track storage, temporary ones included. */
export async function storedFiles(t: TestApp): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    try {
      for await (const e of Deno.readDir(dir)) {
        if (e.isDirectory) await walk(`${dir}/${e.name}`);
        else out.push(`${dir}/${e.name}`);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  };
  await walk(`${t.dir}/tracks`);
  return out;
}

export async function allTracks(t: TestApp) {
  return await t.ctx.db.select().from(tracks);
}
