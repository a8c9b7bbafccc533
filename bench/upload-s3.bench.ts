/**
 * `npx -y deno@2 run -A bench/main.ts upload-s3`: the upload bench (bench/upload.bench.ts) with the
 * tracks in an S3 bucket instead of on the local disk. s3rver (server/testing/s3-server.ts) runs as
 * its own Node process, so its memory is not the server's. 10 MP3s of 50 MB, one after another as
 * in the local bench, then all 10 at once: each upload is a multipart upload of 5 MiB parts, whose
 * buffers come from the process's pool of 4 (decision 0112); processing then reads every object
 * back from the bucket. Target as for local storage: growth over the idle server ≤ 64 MB.
 * With `BENCH_S3_ONLY=parallel` or `=sequential`, only that run.
 */
import { startS3Server } from "../server/testing/s3-server.ts";
import { run } from "./upload.bench.ts";

export default async function () {
  const s3 = await startS3Server({ bucket: "np-bench" });
  try {
    const env = {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const only = Deno.env.get("BENCH_S3_ONLY");
    const result: Record<string, unknown> = {};
    const runs: Awaited<ReturnType<typeof run>>[] = [];
    if (only !== "parallel") {
      const sequential = await run(50, 10, { env });
      result.sequential = sequential;
      runs.push(sequential);
    }
    if (only !== "sequential") {
      const parallel = await run(50, 10, { env, parallel: true });
      result.parallel = parallel;
      runs.push(parallel);
    }
    const pass = runs.every((r) => r.growth_mb <= 64 && r.completed === r.files);
    return { ...result, target: "growth ≤ 64 MB for 10 × 50 MB uploads into S3, every track completed", pass };
  } finally {
    await s3.stop();
  }
}
