/**
 * `deno task bench bundle`: builds the client and measures the JavaScript a public visitor can
 * download: the entry chunk with everything it imports, plus the lazily loaded non-staff pages
 * (profile, processing) and their imports. Target: ≤ 150 KB gzipped, with no staff code in it.
 */
import { isStaff, type ManifestChunk, publicChunks } from "./public-chunks.ts";
const ROOT = new URL("..", import.meta.url).pathname;
const LIMIT_KB = 150;
/**
 * Strings that exist only in the admin and moderator code. The typed client builds paths from
 * property names (`client.admin["redis-data"]`), so the markers are path segments and texts.
 */
const STAFF_MARKERS = [
  "redis-data",
  "Failed to update track",
  "Manage Tracks",
  "Управление пользователями",
  "cleanup-redis",
  // «Приём треков» (issue 25): the admin's intake form.
  "Принимать треки",
];

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

export default async function () {
  const out = await Deno.makeTempDir({ prefix: "np-bundle-" });
  try {
    const build = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/vite.ts", "build", "--outDir", out, "--emptyOutDir", "--manifest"],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (build.code !== 0) throw new Error(new TextDecoder().decode(build.stderr));
    const manifest: Record<string, ManifestChunk> = JSON.parse(await Deno.readTextFile(`${out}/.vite/manifest.json`));

    const { initial, publicKeys } = publicChunks(manifest);

    let initialGz = 0;
    let publicGz = 0;
    const perChunk: Record<string, number> = {};
    const leaks: string[] = [];
    for (const key of publicKeys) {
      const bytes = await Deno.readFile(`${out}/${manifest[key].file}`);
      const size = await gzipSize(bytes);
      publicGz += size;
      perChunk[manifest[key].file.replace(/^assets\//, "")] = size;
      if (initial.has(key)) initialGz += size;
      const text = new TextDecoder().decode(bytes);
      for (const marker of STAFF_MARKERS) if (text.includes(marker)) leaks.push(`${manifest[key].file}: "${marker}"`);
    }
    let staffGz = 0;
    let staffChunks = 0;
    // The markers must be found in the staff chunks, or the leak check above proves nothing.
    const markersSeen = new Set<string>();
    // Staff chunks: the admin/moderator route chunks and every chunk only they import.
    const staffKeys = new Set<string>();
    const addStaff = (key: string) => {
      if (staffKeys.has(key) || publicKeys.has(key)) return;
      staffKeys.add(key);
      for (const dep of [...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? [])]) addStaff(dep);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (isStaff(chunk.src)) addStaff(key);
    for (const key of staffKeys) {
      const chunk = manifest[key];
      staffChunks++;
      const bytes = await Deno.readFile(`${out}/${chunk.file}`);
      staffGz += await gzipSize(bytes);
      const text = new TextDecoder().decode(bytes);
      for (const marker of STAFF_MARKERS) if (text.includes(marker)) markersSeen.add(marker);
    }
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    return {
      initial_js_gzip_kb: kb(initialGz),
      all_public_js_gzip_kb: kb(publicGz),
      public_chunks: publicKeys.size,
      // Each public chunk's gzip size (the first is the entry); bench/bundle-modules.ts lists their modules.
      public_chunks_gzip_kb: Object.fromEntries(Object.entries(perChunk).map(([file, n]) => [file, kb(n)])),
      staff_chunks: staffChunks,
      staff_chunks_gzip_kb: kb(staffGz),
      staff_code_in_public_chunks: leaks,
      staff_markers_found_in_staff_chunks: `${markersSeen.size}/${STAFF_MARKERS.length}`,
      target: `all public JS ≤ ${LIMIT_KB} KB gzipped, no staff code`,
      pass: publicGz / 1024 <= LIMIT_KB && leaks.length === 0 && markersSeen.size === STAFF_MARKERS.length,
    };
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}
