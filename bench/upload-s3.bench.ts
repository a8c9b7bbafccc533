/**
 * `npx -y deno@2 run -A bench/main.ts upload-s3`: the upload bench (bench/upload.bench.ts) with the
 * tracks in an S3 bucket instead of on the local disk. s3rver (server/testing/s3-server.ts) runs as
 * its own Node process, so its memory is not the server's. 10 MP3s of 50 MB, one after another as
 * in the local bench, then all 10 at once: each upload is a multipart upload of 5 MiB parts, whose
 * buffers come from the process's pool (decision 0112); processing then reads every object
 * back from the bucket. Target as for local storage, whose bench sends the uploads one after
 * another: growth over the idle server ≤ 64 MB. The parallel run is reported beside it.
 *
 * Since issue 26 the default is the resumable protocol's section (bench/resumable-upload.ts): ten
 * 50 MB uploads at once through it, into the bucket (the parts PUT to presigned addresses: growth
 * ≤ 16 MB) and on local disk (the part endpoint: growth ≤ 64 MB), each beside the old multipart
 * path's throughput on loopback. The multipart runs with processing described above are run with
 * `BENCH_S3_ONLY=parallel` or `=sequential` (only that run) or `=multipart` (both).
 */
import { startS3Server } from "../server/testing/s3-server.ts";
import { run } from "./upload.bench.ts";
import { runPath } from "./resumable-upload.ts";

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
    if (!only) {
      const s3Resumable = await runPath("resumable", env);
      const s3Multipart = await runPath("multipart", env);
      const localResumable = await runPath("resumable", {});
      const localMultipart = await runPath("multipart", {});
      return {
        s3: { resumable: s3Resumable, multipart_post: s3Multipart },
        local: { resumable: localResumable, multipart_post: localMultipart },
        target:
          "10 × 50 MB resumable uploads at once: growth ≤ 16 MB with S3 (no audio byte passes the server), ≤ 64 MB on local disk",
        pass: s3Resumable.growth_mb <= 16 && localResumable.growth_mb <= 64,
      };
    }
    const result: Record<string, unknown> = {};
    if (only !== "parallel") {
      const sequential = await run(50, 10, { env });
      result.sequential = sequential;
    }
    if (only !== "sequential") {
      const parallel = await run(50, 10, { env, parallel: true });
      result.parallel = parallel;
    }
    const within = (r: Awaited<ReturnType<typeof run>>) => r.growth_mb <= 64 && r.completed === r.files;
    // The target is the local bench's: uploads one after another. All at once is reported beside it
    // (decision 0112 has both figures); local storage grows by ~45 MB there.
    const target = result.sequential as Awaited<ReturnType<typeof run>> | undefined;
    const all = result.parallel as Awaited<ReturnType<typeof run>> | undefined;
    return {
      ...result,
      target:
        "growth ≤ 64 MB for 10 × 50 MB uploads into S3 (one after another, as the local bench), every track completed",
      ...(all ? { parallel_within_64_mb: within(all) } : {}),
      pass: target ? within(target) : all!.completed === all!.files,
    };
  } finally {
    await s3.stop();
  }
}
