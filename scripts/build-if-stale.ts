/**
 * Builds the client with Vite when `client/dist` is missing or older than any client source.
 * A deploy that ships a built client sets CLIENT_PREBUILT=1 instead (server/start.ts).
 */
const SOURCES = ["client", "domain", "vite.config.ts", "scripts/vite.ts", "deno.json", "deno.lock"];
const STAMP = "client/dist/index.html";

async function newestMtime(path: string): Promise<number> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  if (path.endsWith("/dist") || path.endsWith("node_modules")) return 0;
  let newest = 0;
  for await (const entry of Deno.readDir(path)) {
    newest = Math.max(newest, await newestMtime(`${path}/${entry.name}`));
  }
  return newest;
}

/** What the build needs besides `client/`: without it the sources were not shipped, only the build. */
const BUILD_CONFIG = "vite.config.ts";

export async function isClientStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(STAMP)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  // A deploy that ships client/dist without the client's sources: nothing to compare, nothing to
  // build with (the copy's times say nothing about staleness).
  if (!(await Deno.stat(BUILD_CONFIG).then(() => true, () => false))) return false;
  for (const src of SOURCES) if ((await newestMtime(src)) > built) return true;
  return false;
}

export async function ensureClientBuilt(force = false): Promise<void> {
  if (!force && !(await isClientStale())) return;
  console.error("Building the client (vite build)...");
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/vite.ts", "build"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`vite build failed with exit code ${code}`);
}

if (import.meta.main) await ensureClientBuilt(Deno.args.includes("--force"));
