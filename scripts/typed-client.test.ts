/**
 * The point of the typed client (docs/decisions/0135-typed-api-client.md): a field renamed in a
 * server answer breaks `deno task check` in the client, not a page in the browser. A copy of the
 * code gets a server-side rename and the client's type check must fail on the old name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url);
/** What `deno check client/` reads: the client, the server types it imports, and their imports. */
const COPIED = ["client", "server", "db", "domain", "deno.json", "deno.lock"];
const SKIPPED = new Set(["node_modules", "dist"]);

let copy = "";

async function copyTree(from: string, to: string) {
  const info = await Deno.stat(from);
  if (info.isFile) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (SKIPPED.has(entry.name)) continue;
    await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/** Replaces `from` by `to` in one file of the copy; fails when `from` is not there (the test would prove nothing). */
async function rename(path: string, from: string, to: string) {
  const file = `${copy}/${path}`;
  const text = await Deno.readTextFile(file);
  expect(text).toContain(from);
  await Deno.writeTextFile(file, text.replace(from, to));
}

async function checkClient(): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "client/"],
    cwd: copy,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { ok: out.success, output: decode(out.stdout) + decode(out.stderr) };
}

beforeAll(async () => {
  copy = await Deno.makeTempDir({ prefix: "typed-client-" });
  const root = ROOT.pathname.replace(/\/$/, "");
  for (const name of COPIED) await copyTree(`${root}/${name}`, `${copy}/${name}`);
  // The npm packages are read where they are installed, not copied.
  await Deno.symlink(`${root}/node_modules`, `${copy}/node_modules`);
});

afterAll(async () => {
  if (copy) await Deno.remove(copy, { recursive: true });
});

describe("the typed API client", () => {
  it("deno check fails in the client when the server renames a field of an answer", async () => {
    // The signed-in user's `username` (GET /api/auth/me and every answer built with userView)
    // becomes `login` on the server only.
    await rename("server/auth/user-view.ts", "    username: user.username,", "    login: user.username,");
    const { ok, output } = await checkClient();
    expect(ok).toBe(false);
    expect(output).toMatch(/Property 'username' does not exist/);
    expect(output).toMatch(/client\//);
  }, 240_000);
});
