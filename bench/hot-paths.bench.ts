/**
 * `deno task bench hot`: requests per second of the site's hot paths against the real server, each
 * as a ratio to a bare `Deno.serve` measured in the same run with the same load generator (issue 15).
 *
 * The generator is wrk (Debian package `wrk`: `apt-get install wrk`), one thread, 50 keep-alive
 * connections, 4 s per route (`wrk -t1 -c50 -d4s`), sending a browser's `Accept-Encoding`. A
 * generator written in Deno tops out near 28k req/s against the bare server and would measure
 * itself. The issue wants ≥ 150k req/s against bare; on a 2-core machine bare `Deno.serve` needs
 * ~9.5 µs of CPU a request, so one core serves ~105k and no generator can get more out of it. wrk
 * and the servers are pinned to different cores with taskset when it is there (`BENCH_PIN=0` turns
 * that off), and the bare runs report the cores used meanwhile by the bare server, by wrk and by
 * everything else (/proc), and say which was the limit (`bare_run_bottleneck`): a server at ~100%
 * of its core with wrk below 100% of its own means the server, not the generator, set the figure.
 *
 * Anchors: a bare `Deno.serve` answering "ok", a plain Hono app answering a small JSON, and a bare
 * `Deno.serve` answering that JSON with the API's security headers (the ceiling they leave). The real
 * server (`server/main.ts`, a subprocess) runs on a temporary libSQL file seeded with the demo FAQ and
 * slider (`scripts/seed.ts`) and an artist with 50 tracks (one uploaded and processed through the API, so
 * the status poll is answered as the processing page sees it), and serves the built client. Bare is
 * measured at the start and at the end of the run and the routes are compared with the mean (the
 * shared machine's load moves during a run). Each route also gets a `cpu_ratio`: bare's server CPU
 * time per request over the route's (all threads, /proc), which the generator's own limits move
 * less than the request rates; pass or fail is by request rates.
 *
 * Goals (ratio to bare): GET /api/status/{id} signed in ≥ 0.30; GET /api/config, /api/slider,
 * /api/faq and / ≥ 0.30; GET /api/auth/me, /api/track_ids, /api/tracks ≥ 0.15. The conditional
 * requests (If-None-Match → 304) of the public routes are reported too; docs/benchmarks.md shows a run.
 * The machine is shared: absolute figures are noisy, the ratios within one run are what counts.
 */
import { openDb } from "../db/client.ts";
import { seedDatabase } from "../scripts/seed.ts";
import { ensureClientBuilt } from "../scripts/build-if-stale.ts";
import { createTrack } from "../server/testing/factories.ts";
import { multipartBody } from "../server/testing/multipart-body.ts";
import { freePort, startServer } from "../server/testing/server-process.ts";
import { FAST_HEADERS } from "../server/http/deno-header-list.ts";
import { mpegFrames } from "./upload.bench.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 4);
/** Windows per route on page-first connections; the median one is judged (`BENCH_REPEATS`). */
const REPEATS = Math.max(1, Number(Deno.env.get("BENCH_REPEATS") ?? 3));
const CONNECTIONS = 50;
const ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const TRACKS = 50;

interface WrkResult {
  rps: number;
  /** Answers outside 2xx/3xx plus socket errors. */
  bad: number;
  p99_ms: number | null;
}

const WRK_MISSING = "wrk is not installed: `apt-get install wrk` (Debian package wrk), then run the bench again";

async function hasWrk(): Promise<boolean> {
  try {
    const out = await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return out.code === 0 || out.code === 1; // wrk --version exits 1 after printing its version
  } catch {
    return false;
  }
}

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

/**
 * The cores wrk and the servers are pinned to (taskset, util-linux) when the machine has two or more
 * and taskset is there: wrk on the first, every server on the second, so neither steals the other's
 * core and the bare run shows which of them is the limit. `BENCH_PIN=0` turns it off.
 */
const PIN = Deno.env.get("BENCH_PIN") !== "0" && navigator.hardwareConcurrency >= 2 &&
  (await has("taskset", ["--version"]));
const WRK_CPU = "0";
const SERVER_CPU = "1";

async function has(command: string, args: string[]): Promise<boolean> {
  try {
    await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

/** Pins a running process, every thread of it, to the servers' core. */
async function pinServer(pid: number) {
  if (!PIN) return;
  const out = await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", SERVER_CPU, String(pid)],
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (out.code !== 0) throw new Error(`taskset failed: ${new TextDecoder().decode(out.stderr)}`);
}

/**
 * The request script every wrk run uses (one Lua function returning a request made once, as cheap
 * for wrk as its built-in request: bare measured the same either way). With `pageFirst`, the first
 * request of each connection is `GET /`, the page, as a browser's connection loads the page or an
 * asset before the API calls it carries: Deno grows a connection's header buffer to its largest
 * header block, and an answer whose body fits in what is left goes out in one write (decision 0191).
 * The count is wrk's, per thread (one here): a connection wrk opens again later starts with the route.
 * Bare and the anchors answer `/` as they answer everything, so they are measured the same way.
 */
let WRK_SCRIPT = "";
const WRK_LUA = `local first, sent, page, route = 0, 0, nil, nil
init = function(args)
  -- wrk calls request() once before any connection opens, to check it: that call takes no slot.
  first = tonumber(args[1]) or 0
  if first > 0 then first = first + 1 end
  page = wrk.format("GET", "/")
  route = wrk.format()
end
request = function()
  sent = sent + 1
  if sent <= first then return page end
  return route
end
`;

async function wrk(
  url: string,
  headers: Record<string, string> = {},
  seconds = SECONDS,
  pageFirst = true,
): Promise<WrkResult> {
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-H", `Accept-Encoding: ${ACCEPT_ENCODING}`];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
  args.push("-s", WRK_SCRIPT, url, "--", String(pageFirst ? CONNECTIONS : 0));
  const out =
    await (PIN
      ? new Deno.Command("taskset", { args: ["-c", WRK_CPU, "wrk", ...args], stdout: "piped", stderr: "piped" })
      : new Deno.Command("wrk", { args, stdout: "piped", stderr: "piped" })).output();
  const text = new TextDecoder().decode(out.stdout);
  if (out.code !== 0) throw new Error(`wrk failed: ${new TextDecoder().decode(out.stderr)}${text}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0;
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(text);
  return { rps, bad: non2xx + socketErrors, p99_ms: p99 ? +ms(p99[1], p99[2]).toFixed(2) : null };
}

/** Whether `url` answers within `tries` attempts `delayMs` apart. */
async function answering(url: string, tries: number, delayMs: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    try {
      await (await fetch(url)).text();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
  return false;
}

/** A `deno eval` server on a free port, for the anchors. */
async function startEval(code: (port: number) => string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code(port)],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  if (!(await answering(url, 300, 100))) throw new Error("anchor server did not start");
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

const startBare = () =>
  startEval((port) => `Deno.serve({ port: ${port}, hostname: "127.0.0.1", onListen() {} }, () => new Response("ok"))`);

/**
 * The ceiling for this site's API answers: a bare `Deno.serve` sending the config answer with the
 * API's security headers (decision 0189) and a request id, the headers every `/api` answer of the
 * site carries, so the cost of the headers themselves shows apart from the app's.
 */
const startBareWithHeaders = () =>
  startEval((port) =>
    `import { API_SECURITY_HEADERS } from "./server/http/security-headers.ts";
     const body = JSON.stringify({ success: true, maintenance: false, providers: { vk: false, telegram: false }, limits: { max_upload_file_mb: 50, max_upload_files: 20 } });
     const base = Object.fromEntries([["content-type", "application/json"], ...API_SECURITY_HEADERS]);
     Deno.serve({ port: ${port}, hostname: "127.0.0.1", onListen() {} }, () => new Response(body, { headers: { ...base, "x-request-id": crypto.randomUUID() } }));`
  );

/**
 * What wrk gets from one core against another server: nginx (Debian package `nginx-light`; skipped
 * when it is not installed) answering "ok" on the servers' core, one worker, no log. Where nginx needs
 * clearly less CPU a request than bare `Deno.serve` and wrk still gets no more from it, wrk's own
 * core is the limit; where both need about the same (as measured here), the run cannot tell.
 */
async function startNginx() {
  if (!(await has("nginx", ["-v"]))) return null;
  const dir = await Deno.makeTempDir({ prefix: "bench-nginx-" });
  const port = freePort();
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
     events { worker_connections 1024; }
     http { access_log off; keepalive_requests 1000000; client_body_temp_path ${dir};
       server { listen 127.0.0.1:${port}; location / { return 200 "ok"; } } }`,
  );
  const child = new Deno.Command("nginx", {
    args: ["-c", `${dir}/nginx.conf`, "-p", dir],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  if (!(await answering(url, 100, 50))) {
    child.kill("SIGQUIT");
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    return null;
  }
  // The master process forks one worker, which answers: pin both.
  const workers = await Deno.readTextFile(`/proc/${child.pid}/task/${child.pid}/children`).catch(() => "");
  const pids = [child.pid, ...workers.split(/\s+/).filter(Boolean).map(Number)];
  return {
    url,
    pids,
    async stop() {
      child.kill("SIGQUIT");
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

const startPlainHono = () =>
  startEval((port) =>
    `import { Hono } from "hono";
     const app = new Hono().get("/", (c) => c.json({ success: true, message: "ok" }));
     Deno.serve({ port: ${port}, hostname: "127.0.0.1", onListen() {} }, app.fetch);`
  );

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const f = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** CPU seconds of this process's children that have ended and been waited for (wrk, once its run is over). */
function childrenCpuSeconds(): number {
  const f = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** CPU seconds every core of the machine has been busy (not idle or waiting for I/O). */
function machineBusySeconds(): number {
  const f = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = f;
  return (user + nice + system + irq + softirq + (steal ?? 0)) / 100;
}

/**
 * Waits until the server has been idle for half a second (under 4% of a core: background work from
 * the upload, processing or start-up has ended), at most 30 s, so no route is measured while the
 * server finishes something else. Says so when it never settled.
 */
async function settle(pid: number): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    const c0 = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 500));
    if (cpuSeconds(pid) - c0 < 0.02) return true;
  }
  console.error(`server ${pid} still busy after 30 s: measuring anyway`);
  return false;
}

interface BareUse {
  rps: number;
  bad: number;
  /** Cores busy during the run: the bare server's, wrk's and everything else's on the machine. */
  server: number;
  wrk: number;
  other: number;
  cpuUsPerRequest: number;
}

/** A run against the bare server with who used how much CPU meanwhile (/proc). */
async function bareRun(url: string, pid: number): Promise<BareUse> {
  const s0 = cpuSeconds(pid), w0 = childrenCpuSeconds(), m0 = machineBusySeconds(), t0 = performance.now();
  const run = await wrk(url);
  const wall = (performance.now() - t0) / 1000;
  const server = cpuSeconds(pid) - s0, generator = childrenCpuSeconds() - w0, all = machineBusySeconds() - m0;
  return {
    rps: run.rps,
    bad: run.bad,
    server: server / wall,
    wrk: generator / wall,
    other: Math.max(0, all - server - generator) / wall,
    cpuUsPerRequest: (server / (run.rps * SECONDS)) * 1e6,
  };
}

/** REPEATS runs against the bare server, the median one by request rate. */
async function bareMedian(url: string, pid: number): Promise<BareUse> {
  const runs: BareUse[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await bareRun(url, pid));
  runs.sort((a, b) => a.rps - b.rps);
  return { ...runs[Math.floor(runs.length / 2)], bad: runs.reduce((n, r) => n + r.bad, 0) };
}

/**
 * Which side held the bare run down. The issue asks for a generator that reaches 150k req/s against
 * bare; when bare is below that, this says whether the server was the limit (bare Deno.serve using
 * its whole core: no generator gets more out of it, whatever wrk's own use) or wrk was (its core full,
 * the server's not), or neither (other load).
 */
function bottleneck(runs: BareUse[]): string {
  const mean = (f: (r: BareUse) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
  const server = mean((r) => r.server), gen = mean((r) => r.wrk), other = mean((r) => r.other);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const use = `bare Deno.serve used ${pct(server)} of a core, wrk ${pct(gen)}, other processes ${pct(other)} ` +
    `(${PIN ? `wrk pinned to CPU ${WRK_CPU}, the servers to CPU ${SERVER_CPU} with taskset` : "not pinned"})`;
  const ceiling =
    `one core serves at most ~${Math.round(1e6 / mean((r) => r.cpuUsPerRequest) / 1000)}k bare requests/s ` +
    `at ${mean((r) => r.cpuUsPerRequest).toFixed(1)} µs each, so no generator gets 150k from it on this machine`;
  if (server >= 0.85 && gen >= 0.85) {
    return `server-bound (wrk at its limit too): ${use}; ${ceiling}`;
  }
  if (server >= 0.85) return `server-bound: ${use}; wrk had room, so it was not the limit; ${ceiling}`;
  if (gen >= 0.85) return `generator-bound: ${use}; the bare figure is wrk's limit, and the ratios read high`;
  return `neither core full: ${use}; the machine's other load or the scheduler held the run down, the ratios are unreliable`;
}

async function upload(url: string, headers: Record<string, string>) {
  const mp = multipartBody([
    { name: "directions", value: "label_koster" },
    { name: "files", filename: "Bench - Status.mp3", type: "audio/mpeg", data: mpegFrames() },
  ]);
  const res = await fetch(`${url}/api/upload`, {
    method: "POST",
    headers: { ...headers, "content-type": mp.contentType },
    body: mp.body,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.track_ids[0] as number;
}

interface Route {
  name: string;
  path: string;
  goal: number;
  auth?: boolean;
  /** Also measured with If-None-Match set to the answer's ETag (304). */
  conditional?: boolean;
}

const ROUTES: Route[] = [
  { name: "GET /api/status/{id} (signed in)", path: "/api/status/ID", goal: 0.3, auth: true },
  { name: "GET /api/config", path: "/api/config", goal: 0.3, conditional: true },
  { name: "GET /api/slider", path: "/api/slider", goal: 0.3, conditional: true },
  { name: "GET /api/faq", path: "/api/faq", goal: 0.3, conditional: true },
  { name: "GET / (HTML shell)", path: "/", goal: 0.3, conditional: true },
  { name: "GET /api/auth/me", path: "/api/auth/me", goal: 0.15, auth: true },
  { name: "GET /api/track_ids", path: "/api/track_ids", goal: 0.15, auth: true },
  { name: `GET /api/tracks (${TRACKS} tracks)`, path: "/api/tracks", goal: 0.15, auth: true },
];

export interface HotPathsResult {
  [key: string]: unknown;
  pass: boolean;
}

export default async function hotPaths(): Promise<HotPathsResult> {
  if (!(await hasWrk())) {
    console.error(WRK_MISSING);
    return { error: WRK_MISSING, pass: false };
  }
  WRK_SCRIPT = await Deno.makeTempFile({ prefix: "bench-wrk-", suffix: ".lua" });
  await Deno.writeTextFile(WRK_SCRIPT, WRK_LUA);
  await ensureClientBuilt();
  const server = await startServer({ CLIENT_DIST_DIR: `${ROOT}client/dist` });
  const bare = await startBare();
  const hono = await startPlainHono();
  const bareHeaders = await startBareWithHeaders();
  const nginx = await startNginx();
  for (const pid of [server.pid, bare.pid, hono.pid, bareHeaders.pid, ...(nginx?.pids ?? [])]) await pinServer(pid);
  try {
    const headers = await server.headers();
    const userId = Number(
      JSON.parse(atob(headers.Authorization.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sub,
    );
    const db = await openDb({ url: `file:${server.dataDir}/app.db` });
    try {
      await seedDatabase(db, { staticDir: `${server.dataDir}/static` });
      for (let i = 1; i < TRACKS; i++) {
        await createTrack(db, {
          user_id: userId,
          filename: `Bench Artist - Track ${i}.mp3`,
          directions: i % 3 === 0 ? "label_neuropunk,podcast_neuropunk" : "label_koster",
          upload_date: new Date(Date.now() - i * 60_000),
          size: 8_000_000 + i,
          duration: 240 + i,
        });
      }
    } finally {
      db.$client.close();
    }
    // The 50th track goes through the upload and its processing, so the poll reads its status key.
    const id = await upload(server.url, headers);
    for (;;) {
      const s = await (await fetch(`${server.url}/api/status/${id}`, { headers })).json();
      if (s.status !== "processing") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const own = await (await fetch(`${server.url}/api/tracks`, { headers })).json();
    if (own.tracks?.length !== TRACKS) throw new Error(`expected ${TRACKS} tracks, got ${own.tracks?.length}`);

    // Warm-up: every server and route once, briefly.
    await wrk(bare.url, {}, 1);
    await wrk(hono.url, {}, 1);
    await wrk(bareHeaders.url, {}, 1);
    for (const r of ROUTES) await wrk(server.url + r.path.replace("ID", String(id)), r.auth ? headers : {}, 1);

    const bareStart = await bareMedian(bare.url, bare.pid);
    // wrk's own ceiling, right after bare (the same machine state).
    let ceiling: BareUse | null = null;
    if (nginx) {
      await wrk(nginx.url, {}, 1);
      ceiling = await bareRun(nginx.url, nginx.pids.at(-1)!);
    }
    const honoRun = await wrk(hono.url);
    const headersRun = await wrk(bareHeaders.url);
    interface Measured {
      r: Route;
      first: Response;
      run: WrkResult;
      cpuUs: number;
      notModified: { status: number; run: WrkResult } | "no ETag" | null;
      fresh: WrkResult;
      freshCpuUs: number;
      windows: number[];
      bad: number;
    }
    const measured: Measured[] = [];
    for (const r of ROUTES) {
      const url = server.url + r.path.replace("ID", String(id));
      const h = r.auth ? headers : {};
      const first = await fetch(url, { headers: { ...h, "accept-encoding": ACCEPT_ENCODING } });
      await first.arrayBuffer();
      // REPEATS windows, the median one counts: one 4 s window on a shared machine moves by ±15%.
      const windows: { run: WrkResult; cpuUs: number }[] = [];
      for (let i = 0; i < REPEATS; i++) {
        await settle(server.pid);
        const c0 = cpuSeconds(server.pid);
        const w = await wrk(url, h);
        windows.push({ run: w, cpuUs: ((cpuSeconds(server.pid) - c0) / (w.rps * SECONDS)) * 1e6 });
      }
      const byRate = [...windows].sort((a, b) => a.run.rps - b.run.rps);
      const { run, cpuUs } = byRate[Math.floor(byRate.length / 2)];
      const bad = windows.reduce((n, w) => n + w.run.bad, 0);
      // The same route on connections that carry nothing else (decision 0191): reported, not judged.
      await settle(server.pid);
      const f0 = cpuSeconds(server.pid);
      const fresh = await wrk(url, h, SECONDS, false);
      const freshCpuUs = ((cpuSeconds(server.pid) - f0) / (fresh.rps * SECONDS)) * 1e6;
      let notModified: Measured["notModified"] = null;
      if (r.conditional) {
        const etag = first.headers.get("etag");
        if (!etag) notModified = "no ETag";
        else {
          const check = await fetch(url, { headers: { "if-none-match": etag, "accept-encoding": ACCEPT_ENCODING } });
          await check.arrayBuffer();
          notModified = { status: check.status, run: await wrk(url, { "If-None-Match": etag }) };
        }
      }
      measured.push({
        r,
        first,
        run,
        cpuUs,
        notModified,
        fresh,
        freshCpuUs,
        windows: windows.map((w) => Math.round(w.run.rps)),
        bad,
      });
    }
    // Bare again at the end: the shared machine's load moves during a run, so the routes are compared
    // with the mean of the two bare figures.
    const bareEnd = await bareMedian(bare.url, bare.pid);
    const bareCpuUs = (bareStart.cpuUsPerRequest + bareEnd.cpuUsPerRequest) / 2;
    const bareMean = { rps: (bareStart.rps + bareEnd.rps) / 2, bad: bareStart.bad + bareEnd.bad };
    let pass = bareMean.bad === 0;
    const routes = measured.map(({ r, first, run, cpuUs, notModified, fresh, freshCpuUs, windows, bad }) => {
      const ratio = run.rps / bareMean.rps;
      let ok = first.ok && bad === 0 && ratio >= r.goal;
      const row: Record<string, unknown> = {
        route: r.name,
        rps: Math.round(run.rps),
        ratio: +ratio.toFixed(3),
        goal: r.goal,
        result: "",
        server_cpu_us_per_request: Math.round(cpuUs),
        // By CPU time per request (all the process's threads, /proc), which the generator's own
        // limits move less than the request rates: bare's CPU per request over the route's.
        cpu_ratio: +(bareCpuUs / cpuUs).toFixed(3),
        p99_ms: run.p99_ms,
        errors: bad,
        window_ratios: windows.map((w) => +(w / bareMean.rps).toFixed(3)),
        fresh_connections: {
          rps: Math.round(fresh.rps),
          ratio: +(fresh.rps / bareMean.rps).toFixed(3),
          server_cpu_us_per_request: Math.round(freshCpuUs),
          cpu_ratio: +(bareCpuUs / freshCpuUs).toFixed(3),
          errors: fresh.bad,
        },
        status: first.status,
        content_encoding: first.headers.get("content-encoding"),
      };
      if (notModified === "no ETag") {
        ok = false;
        row.not_modified = "no ETag";
      } else if (notModified) {
        const nm = notModified.run;
        row.not_modified = {
          status: notModified.status,
          rps: Math.round(nm.rps),
          ratio: +(nm.rps / bareMean.rps).toFixed(3),
          errors: nm.bad,
        };
        if (notModified.status !== 304) ok = false;
      }
      row.result = ok ? "PASS" : "FAIL";
      pass &&= ok;
      return row;
    });
    const result = {
      generator: `wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, Accept-Encoding: ${ACCEPT_ENCODING}; ` +
        "each connection's first request GET / (the page), then the route; fresh_connections: the route alone",
      windows_per_route: `${REPEATS} on page-first connections, the median judged`,
      pinned: PIN
        ? `taskset: wrk on CPU ${WRK_CPU}, the servers on CPU ${SERVER_CPU}`
        : "no (taskset missing, one core, or BENCH_PIN=0)",
      bare_deno_serve_rps: Math.round(bareMean.rps),
      bare_start_end_rps: [Math.round(bareStart.rps), Math.round(bareEnd.rps)],
      bare_cpu_us_per_request: +bareCpuUs.toFixed(1),
      generator_fast_enough: bareMean.rps >= 150_000
        ? "yes (≥ 150k req/s against bare)"
        : "NO: bare < 150k req/s (see bare_run_bottleneck)",
      bare_run_bottleneck: bottleneck([bareStart, bareEnd]),
      bare_cpu_use: [bareStart, bareEnd].map((r) => ({
        server_cores: +r.server.toFixed(2),
        wrk_cores: +r.wrk.toFixed(2),
        other_cores: +r.other.toFixed(2),
      })),
      generator_ceiling: ceiling
        ? {
          wrk_against_nginx_rps: Math.round(ceiling.rps),
          nginx_cores: +ceiling.server.toFixed(2),
          wrk_cores: +ceiling.wrk.toFixed(2),
          other_cores: +ceiling.other.toFixed(2),
          nginx_cpu_us_per_request: +ceiling.cpuUsPerRequest.toFixed(1),
          reading: ceiling.wrk >= 0.85 && ceiling.server >= 0.85
            ? `both cores full; nginx needed ${ceiling.cpuUsPerRequest.toFixed(1)} µs of CPU a request against bare's ${
              bareStart.cpuUsPerRequest.toFixed(1)
            }, so ${
              ceiling.cpuUsPerRequest < bareStart.cpuUsPerRequest * 0.8
                ? "wrk, not the server, set this rate"
                : "this run cannot tell wrk's limit from the server's"
            }`
            : ceiling.wrk >= 0.85
            ? "wrk's core is full and nginx's is not: this is the most one wrk thread gets on this machine"
            : ceiling.server >= 0.85
            ? "nginx's core is full: wrk can generate more than this"
            : "neither core full: other load held the run down",
        }
        : "nginx not installed (apt-get install nginx-light): wrk's own ceiling not measured",
      plain_hono_json_rps: Math.round(honoRun.rps),
      plain_hono_ratio: +(honoRun.rps / bareMean.rps).toFixed(3),
      bare_with_site_headers_rps: Math.round(headersRun.rps),
      bare_with_site_headers_ratio: +(headersRun.rps / bareMean.rps).toFixed(3),
      fast_header_path: FAST_HEADERS,
      routes,
      pass,
    };
    return result;
  } finally {
    await Deno.remove(WRK_SCRIPT).catch(() => {});
    await nginx?.stop();
    await bareHeaders.stop();
    await hono.stop();
    await bare.stop();
    await server.stop();
  }
}

if (import.meta.main) {
  const result = await hotPaths();
  console.log(JSON.stringify(result, null, 2));
  if (!result.pass) Deno.exit(1);
}
