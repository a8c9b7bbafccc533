import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrack } from "../../testing/factories.ts";
import { AUDIO, audioBytes, type StaffFixture, staffFixture } from "../../testing/staff-test-kit.ts";
import { releaseBehind } from "./release-behind.ts";

describe("releaseBehind", () => {
  it("passes every chunk on and detaches only those `lag` chunks behind", async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => new Uint8Array(1024).fill(i));
    const reader = releaseBehind(ReadableStream.from(chunks), 3).getReader();
    const copies: number[] = [];
    const received: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      copies.push(value[0]); // a consumer that uses each chunk as it comes
      received.push(value);
    }
    expect(copies).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The pull that found the end released one more: two chunks stay.
    expect(received.slice(0, 8).every((c) => (c.buffer as ArrayBuffer).detached)).toBe(true);
    expect(received.slice(8).every((c) => !(c.buffer as ArrayBuffer).detached && c.length === 1024)).toBe(true);
  });

  it("leaves alone chunks that are views on part of a buffer", async () => {
    const shared = new Uint8Array(8).fill(7);
    const parts = [shared.subarray(0, 4), shared.subarray(4), new Uint8Array(4), new Uint8Array(4)];
    const reader = releaseBehind(ReadableStream.from(parts), 1).getReader();
    const got: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got.push(...value);
    }
    expect(got).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect((shared.buffer as ArrayBuffer).detached).toBe(false);
  });
});

describe("big archives", () => {
  let f: StaffFixture;
  let big: Uint8Array;
  let ids: number[];
  beforeAll(async () => {
    f = await staffFixture();
    const one = audioBytes(AUDIO.amen);
    big = new Uint8Array(one.length * 8); // ~2.6 MB: forty 64 KB chunks, well past the window
    for (let i = 0; i < 8; i++) big.set(one, i * one.length);
    ids = [];
    for (let i = 0; i < 3; i++) {
      const key = `tracks/${crypto.randomUUID()}.mp3`;
      await f.t.ctx.storage.write(key, ReadableStream.from([big]));
      ids.push((await createTrack(f.t.ctx.db, { filename: `Big - ${i}.mp3`, storage_key: key, size: big.length })).id);
    }
  });
  afterAll(() => f.close());

  const check = (bytes: Uint8Array) => {
    const files = unzipSync(bytes);
    for (let i = 0; i < 3; i++) expect(files[`Big - ${i}.mp3`]).toEqual(big);
  };

  it("arrive intact in process (app.request: nothing is released early)", async () => {
    const r = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: ids } });
    const res = await f.t.app.request(r.body.download_url as string);
    check(new Uint8Array(await res.arrayBuffer()));
  });

  it("arrive intact through Deno.serve, where chunks are released behind", async () => {
    const ac = new AbortController();
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, f.t.app.fetch);
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      const link = await fetch(`${base}/api/admin/tracks/download`, {
        method: "POST",
        headers: { ...f.as.admin, "Content-Type": "application/json" },
        body: JSON.stringify({ track_ids: ids }),
      });
      const { download_url } = await link.json();
      const res = await fetch(`${base}${download_url}`, { headers: { "Accept-Encoding": "gzip, deflate" } });
      expect(res.headers.get("content-encoding")).toBeNull();
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(String(bytes.length)).toBe(res.headers.get("content-length"));
      check(bytes);
    } finally {
      ac.abort();
      await server.finished;
    }
  });
});
