/**
 * `deno task bench status`: how fast the real server answers the processing page's poll,
 * an authenticated GET /api/status/{id}, against a bare `Deno.serve` answering "ok", in the same run
 * with the same load generator (keep-alive fetches from this process, a fixed number in flight).
 * Target: the ratio real / bare ≥ 0.30.
 */
import { mpegFrames, startServer } from "./upload.bench.ts";
import { multipartBody } from "../server/testing/multipart-body.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const IN_FLIGHT = 32;
const SECONDS = 4;

async function load(url: string, headers: Record<string, string>, seconds: number, check: (status: number) => boolean) {
  let done = 0;
  let bad = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (check(res.status)) done++;
        else bad++;
      }
    }),
  );
  return { rps: done / seconds, bad };
}

async function startBare() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", `Deno.serve({ port: ${port}, hostname: "127.0.0.1", onListen() {} }, () => new Response("ok"))`],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0;; i++) {
    try {
      await (await fetch(url)).text();
      break;
    } catch {
      if (i > 300) throw new Error("bare server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

export default async function () {
  const server = await startServer();
  const bare = await startBare();
  try {
    const headers = await server.headers();
    // One real upload, processed, so the poll is answered as the page sees it.
    const frames = mpegFrames();
    const mp = multipartBody([
      { name: "directions", value: "label_koster" },
      { name: "files", filename: "Bench - Status.mp3", type: "audio/mpeg", data: frames },
    ]);
    const up = await (await fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { ...headers, "content-type": mp.contentType },
      body: mp.body,
    })).json();
    const id = up.track_ids[0];
    const statusUrl = `${server.url}/api/status/${id}`;
    for (;;) {
      const s = await (await fetch(statusUrl, { headers })).json();
      if (s.status !== "processing") break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // Warm both up, then measure each in turn. The server's CPU time per request shows where a
    // shortfall comes from; GET /api/config (no auth, no database) is the framework's floor.
    await load(bare.url, {}, 1, (s) => s === 200);
    await load(statusUrl, headers, 1, (s) => s === 200);
    const cpu = () => {
      const f = Deno.readTextFileSync(`/proc/${server.pid}/stat`).split(") ")[1].split(" ");
      return (Number(f[11]) + Number(f[12])) / 100;
    };
    const bareRun = await load(bare.url, {}, SECONDS, (s) => s === 200);
    let c0 = cpu();
    const realRun = await load(statusUrl, headers, SECONDS, (s) => s === 200);
    const statusCpu = (cpu() - c0) / (realRun.rps * SECONDS);
    c0 = cpu();
    const floorRun = await load(`${server.url}/api/config`, {}, SECONDS, (s) => s === 200);
    const floorCpu = (cpu() - c0) / (floorRun.rps * SECONDS);
    const ratio = realRun.rps / bareRun.rps;
    return {
      in_flight: IN_FLIGHT,
      seconds: SECONDS,
      bare_rps: Math.round(bareRun.rps),
      status_rps: Math.round(realRun.rps),
      status_server_cpu_us: Math.round(statusCpu * 1e6),
      config_rps: Math.round(floorRun.rps),
      config_server_cpu_us: Math.round(floorCpu * 1e6),
      errors: bareRun.bad + realRun.bad,
      ratio: +ratio.toFixed(2),
      target: "ratio ≥ 0.30",
      pass: ratio >= 0.3 && realRun.bad === 0,
    };
  } finally {
    await bare.stop();
    await server.stop();
  }
}
