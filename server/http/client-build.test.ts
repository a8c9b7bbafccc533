import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";

let t: TestApp;
const JS = "console.log('a long enough script');\n".repeat(100);
beforeAll(async () => {
  t = await createTestApp();
  const dist = t.ctx.clientDistDir;
  await Deno.mkdir(`${dist}/assets`, { recursive: true });
  await Deno.writeTextFile(`${dist}/index.html`, "<!doctype html><title>v1</title><div id=root></div>");
  await Deno.writeTextFile(`${dist}/assets/app-1.js`, JS);
  await Deno.writeFile(`${dist}/assets/app-1.js.br`, brotliCompressSync(new TextEncoder().encode(JS)));
  await Deno.writeFile(`${dist}/assets/app-1.js.gz`, gzipSync(new TextEncoder().encode(JS)));
  await Deno.writeTextFile(`${dist}/assets/plain-1.js`, JS);
});
afterAll(() => t.close());

async function decode(res: Response): Promise<string> {
  const coding = res.headers.get("content-encoding");
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (coding === "br") return new TextDecoder().decode((await import("node:zlib")).brotliDecompressSync(bytes));
  if (coding === "gzip") {
    return await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  }
  return new TextDecoder().decode(bytes);
}

describe("the client's files", () => {
  it("are sent from the build's brotli or gzip copy by Accept-Encoding, as they are otherwise", async () => {
    const cases: [string, string | null][] = [["gzip, deflate, br", "br"], ["gzip", "gzip"], ["br;q=0, gzip", "gzip"], [
      "",
      null,
    ]];
    for (const [ae, coding] of cases) {
      const res = await t.app.request("/assets/app-1.js", { headers: ae ? { "Accept-Encoding": ae } : {} });
      expect(res.status, ae).toBe(200);
      expect(res.headers.get("content-encoding"), ae).toBe(coding);
      expect(res.headers.get("content-type")).toContain("javascript");
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("cache-control")).toContain("immutable");
      expect(await decode(res)).toBe(JS);
    }
    // No copy on disk: the file as it is.
    const plain = await t.app.request("/assets/plain-1.js", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(JS);
  });

  it("look for a hashed asset's missing copies once, not on every request", async () => {
    const first = await t.app.request("/assets/plain-1.js", { headers: { "Accept-Encoding": "br, gzip" } });
    await first.arrayBuffer();
    const open = vi.spyOn(Deno, "open");
    try {
      const again = await t.app.request("/assets/plain-1.js", { headers: { "Accept-Encoding": "br, gzip" } });
      expect(again.headers.get("content-encoding")).toBeNull();
      expect(await again.text()).toBe(JS);
      expect(open.mock.calls.map(([path]) => String(path).split("/").pop())).toEqual(["plain-1.js"]);
    } finally {
      open.mockRestore();
    }
  });

  it("serve the page shell from memory with an ETag and 304, and see a rebuild", async () => {
    const first = await t.app.request("/some/page");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("content-type")).toContain("text/html");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await first.text()).toContain("v1");
    const etag = first.headers.get("etag")!;
    const again = await t.app.request("/", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    const head = await t.app.request("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");

    await Deno.writeTextFile(
      `${t.ctx.clientDistDir}/index.html`,
      "<!doctype html><title>v2, rebuilt</title><div id=root></div>",
    );
    let text = "";
    for (let i = 0; i < 40 && !text.includes("v2"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = await (await t.app.request("/")).text();
    }
    expect(text).toContain("v2");
    const changed = await t.app.request("/", { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    await changed.body?.cancel();
  });
});
