import { afterEach, describe, expect, it } from "vitest";
import { createLocalStorage } from "../storage/file-storage.ts";
import { slowReads } from "./slow-processing-server.ts";

describe("the test-only slow storage (server/testing/slow-processing-server.ts)", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await Deno.remove(d, { recursive: true });
  });

  it("hands every byte on, in order, in pieces of at most 16 KiB, and hides the local path", async () => {
    const dir = await Deno.makeTempDir();
    dirs.push(dir);
    const storage = createLocalStorage(dir);
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251);
    await storage.write("a/b.mp3", ReadableStream.from([bytes]));
    // Fast enough not to slow the test; pacing itself is not asserted (no timing in tests).
    const slow = slowReads(storage, 1e9);
    expect(slow.localPath("a/b.mp3")).toBeNull();
    expect(await slow.stat("a/b.mp3")).toEqual({ size: bytes.length });
    const { body, size } = await slow.read("a/b.mp3");
    const chunks = await Array.fromAsync(body);
    expect(size).toBe(bytes.length);
    expect(chunks.every((c) => c.byteLength <= 16 * 1024)).toBe(true);
    const got = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      got.set(c, at);
      at += c.byteLength;
    }
    expect(got).toEqual(bytes);
    const ranged = await slow.read("a/b.mp3", { range: { start: 10, end: 19 } });
    expect(ranged.range).toEqual({ start: 10, end: 19 });
    expect(new Uint8Array(await new Response(ranged.body).arrayBuffer())).toEqual(bytes.subarray(10, 20));
  });

  it("refuses to run with DENO_ENV=production", async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./slow-processing-server.ts", import.meta.url).pathname],
      env: { DENO_ENV: "production", TEST_SLOW_READ_BYTES_PER_S: "1000", JWT_SECRET: "x".repeat(40), PORT: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    expect(out.code).toBe(1);
    expect(new TextDecoder().decode(out.stderr)).toContain("does not run with DENO_ENV=production");
  }, 30_000);
});
