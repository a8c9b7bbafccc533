import { afterAll, describe, expect, it } from "vitest";
import { startS3Server, startS3ServerForTests } from "./s3-server.ts";

const s3 = await startS3ServerForTests({ bucket: "harness-bucket" });

describe.skipIf(!s3)("s3rver test harness", () => {
  afterAll(async () => {
    await s3?.stop();
  });

  it("answers on the printed port and lists the configured bucket", async () => {
    expect(s3!.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s3!.endpoint}/${s3!.bucket}?list-type=2`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<Name>harness-bucket</Name>");
    const missing = await fetch(`${s3!.endpoint}/no-such-bucket?list-type=2`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("<Code>NoSuchBucket</Code>");
  });

  it("stop() ends the process, frees the port and removes the data directory", async () => {
    const other = await startS3Server({ bucket: "short-lived" });
    await other.stop();
    await expect(fetch(`${other.endpoint}/short-lived`)).rejects.toThrow();
    await expect(Deno.stat(other.dir)).rejects.toBeInstanceOf(Deno.errors.NotFound);
    await other.stop(); // a second stop is harmless
  });
});
