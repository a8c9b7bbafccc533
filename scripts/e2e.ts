/**
 * End-to-end runner (part of `deno task test`): builds the client once into a temp dir, starts the
 * real server (server/main.ts) on a free port with temp data, seeds it, launches Debian's Chromium
 * through playwright-core and runs every test registered by `e2e/*.e2e.ts` (or the files given as
 * arguments) one after another. Prints each result and `N passed, M failed`.
 *
 *   npx -y deno@2 run -A scripts/e2e.ts [e2e/home.e2e.ts ...]
 *
 * Without /usr/bin/chromium it prints a notice and exits 0; with CI=true that is a failure.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { migrateDb, openDb } from "../db/client.ts";
import { seedDatabase } from "./seed.ts";
import {
  type ExtraServer,
  registeredTests,
  setCurrentFile,
  type StartServerOptions,
  type TestContext,
} from "../e2e/harness.ts";
import { parseConfig } from "../server/config.ts";
import { createStores } from "../server/storage/stores.ts";
import { loginLink } from "../server/scripts/login-link.ts";
import { freePort } from "../server/testing/redis-server.ts";
import { copyDir } from "../server/testing/copy-dir.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const SCREENSHOTS = `${ROOT}/test-artifacts/screenshots`;
const CI = Deno.env.get("CI") === "true";
// E2E_CPU_THROTTLE=4 runs every page's scripts four times slower (hunting timing-dependent failures).
const CPU_THROTTLE = Number(Deno.env.get("E2E_CPU_THROTTLE") ?? "1") || 1;
const deno = Deno.execPath();

// Product settings are never inherited from the shell: a developer's DATABASE_URL or Upstash
// credentials must not point the test server at real data.
const PRODUCT_VARS =
  /^(PORT|PUBLIC_URL|DATA_DIR|STATIC_DIR|CLIENT_DIST_DIR|CLIENT_PREBUILT|DATABASE_|UPSTASH_|JWT_|DENO_ENV|MAINTENANCE_MODE|LOG_LEVEL|ACCESS_TOKEN_|REFRESH_TOKEN_|VK_|TELEGRAM_|AUTH_RATE_|TRUSTED_PROXY_|MAX_UPLOAD_|MAX_UPLOADS_|PROCESSING_|S3_|TEST_)/;

function baseEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  for (const key of Object.keys(env)) if (PRODUCT_VARS.test(key)) delete env[key];
  return env;
}

// ---------------------------------------------------------------------------------------------
// Test files

async function testFiles(args: string[]): Promise<string[]> {
  if (args.length) return args.map((a) => (a.startsWith("/") ? a : `${Deno.cwd()}/${a}`));
  const files: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}/e2e`)) {
    if (e.isFile && e.name.endsWith(".e2e.ts")) files.push(`${ROOT}/e2e/${e.name}`);
  }
  return files.sort();
}

const rel = (path: string) => path.startsWith(ROOT + "/") ? path.slice(ROOT.length + 1) : path;

// ---------------------------------------------------------------------------------------------
// Servers

interface RunningServer extends ExtraServer {
  stop(): Promise<void>;
}

let serverSeq = 0;

async function startServer(
  tmpRoot: string,
  distDir: string,
  extra: Record<string, string> = {},
  opts: StartServerOptions = {},
): Promise<RunningServer> {
  const dir = `${tmpRoot}/server-${++serverSeq}`;
  const dataDir = `${dir}/data`;
  const staticDir = `${dir}/static`;
  // Committed assets only; public uploads (static/storage) start empty and are seeded.
  await copyDir(`${ROOT}/static`, staticDir, (name) => name === "storage");
  await Deno.mkdir(dataDir, { recursive: true });

  const secret = Array.from(crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  const fixed = {
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    CLIENT_DIST_DIR: distDir,
    JWT_SECRET: secret,
    LOG_LEVEL: "warn",
  };

  // Seed before the server opens the database (the same code as `deno task seed`). A database shared
  // by several servers (DATABASE_URL given) is seeded by each in turn; the seed is idempotent.
  // Slider images go where the server keeps public uploads (the bucket when S3_BUCKET is given).
  const db = await openDb({ url: extra.DATABASE_URL ?? `file:${dataDir}/app.db` });
  try {
    await migrateDb(db);
    const { publicStorage } = createStores(parseConfig({ ...fixed, ...extra }));
    await seedDatabase(db, { staticDir, publicStorage });
  } finally {
    db.$client.close();
  }

  const logFile = `${dir}/server.log`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { ...fixed, PORT: String(port), PUBLIC_URL: baseUrl, ...extra };
    const child = new Deno.Command(deno, {
      args: ["run", "-A", `${ROOT}/${opts.entry ?? "server/main.ts"}`],
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = await Deno.open(logFile, { create: true, append: true });
    const err = await Deno.open(logFile, { create: true, append: true });
    const piping = Promise.all([child.stdout.pipeTo(out.writable), child.stderr.pipeTo(err.writable)]).catch(() => {});
    let exited = false;
    const status = child.status.then((s) => {
      exited = true;
      return s;
    });

    const logTail = async (lines = 40) => {
      const text = await Deno.readTextFile(logFile).catch(() => "");
      return text.trimEnd().split("\n").slice(-lines).join("\n");
    };
    const stop = async () => {
      if (!exited) {
        try {
          child.kill("SIGTERM");
        } catch { /* gone */ }
        const timer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch { /* gone */ }
        }, 10_000);
        await status;
        clearTimeout(timer);
      }
      await piping;
    };

    const deadline = Date.now() + 60_000;
    let healthy = false;
    while (!exited && Date.now() < deadline) {
      try {
        const res = await fetch(`${baseUrl}/api/health`);
        await res.body?.cancel();
        if (res.ok) {
          healthy = true;
          break;
        }
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (healthy) {
      const serverEnv = { ...env };
      return {
        baseUrl,
        dataDir,
        staticDir,
        env: serverEnv,
        loginLink: (username: string) => loginLink(serverEnv, username),
        pid: child.pid,
        stop,
        async crash() {
          if (!exited) {
            try {
              child.kill("SIGKILL");
            } catch { /* gone */ }
          }
          await status;
          await piping;
        },
        logTail,
      };
    }
    await stop();
    const tail = await logTail();
    // Lost a race for the port: try another one; anything else is a real start-up failure.
    if (!/AddrInUse|address already in use/i.test(tail) || attempt === 2) {
      throw new Error(`server did not become healthy on ${baseUrl}:\n${tail}`);
    }
  }
  throw new Error("unreachable");
}

// ---------------------------------------------------------------------------------------------
// Running

interface Result {
  name: string;
  file: string;
  status: "passed" | "failed" | "skipped";
  ms: number;
  error?: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function safeName(name: string) {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "screenshot";
}

async function main(): Promise<number> {
  const files = await testFiles(Deno.args);
  for (const file of files) {
    setCurrentFile(rel(file));
    await import(`file://${file}`);
  }
  // E2E_GREP=text runs only the tests whose name contains it (for chasing one failure).
  const grep = Deno.env.get("E2E_GREP");
  const picked = grep ? registeredTests.filter((t) => t.name.includes(grep)) : registeredTests;
  // E2E_ORDER=reverse runs them last to first: a test that leans on an earlier one's state fails.
  const tests = Deno.env.get("E2E_ORDER") === "reverse" ? [...picked].reverse() : picked;
  if (tests.length === 0) {
    console.log("e2e: no end-to-end tests found");
    console.log("0 passed, 0 failed");
    return 0;
  }

  const haveChromium = await Deno.stat(CHROMIUM).then((s) => s.isFile).catch(() => false);
  if (!haveChromium) {
    console.log(`NOTICE: ${CHROMIUM} not found (apt-get install chromium): end-to-end tests skipped.`);
    for (const t of tests) console.log(`  - skipped  ${t.file} › ${t.name}`);
    console.log(`0 passed, 0 failed, ${tests.length} skipped`);
    if (CI) {
      console.error("CI=true: Chromium is required, failing.");
      return 1;
    }
    return 0;
  }

  const tmpRoot = await Deno.makeTempDir({ prefix: "np-e2e-" });
  const servers: RunningServer[] = [];
  let browser: Browser | undefined;
  const results: Result[] = [];
  const onSignal = () => {
    console.error("\ne2e: interrupted, stopping servers and browser");
    Promise.allSettled([browser?.close(), ...servers.map((s) => s.stop())])
      .finally(() => Deno.remove(tmpRoot, { recursive: true }).catch(() => {}))
      .finally(() => Deno.exit(130));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);

  try {
    const distDir = `${tmpRoot}/dist`;
    console.log("e2e: building the client…");
    const build = await new Deno.Command(deno, {
      args: ["run", "-A", "scripts/vite.ts", "build", "--outDir", distDir, "--emptyOutDir", "--logLevel", "warn"],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (build.code !== 0) {
      console.error("e2e: the client build failed");
      console.log(`0 passed, ${tests.length} failed`);
      return 1;
    }

    console.log("e2e: starting the server…");
    const shared = await startServer(tmpRoot, distDir);
    servers.push(shared);

    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    await Deno.mkdir(SCREENSHOTS, { recursive: true });
    console.log(`e2e: ${tests.length} test(s) against ${shared.baseUrl}\n`);

    for (const t of tests) {
      const contexts: BrowserContext[] = [];
      const extraServers: RunningServer[] = [];
      const pageErrors: string[] = [];
      const ctx: TestContext = {
        server: shared,
        browser,
        async startServer(env = {}, opts = {}) {
          const s = await startServer(tmpRoot, distDir, env, opts);
          servers.push(s);
          extraServers.push(s);
          return s;
        },
        async page(viewport = { width: 1280, height: 800 }) {
          const context = await browser!.newContext({ viewport, locale: "ru-RU" });
          contexts.push(context);
          const page: Page = await context.newPage();
          if (CPU_THROTTLE > 1) {
            const cdp = await context.newCDPSession(page);
            await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLE });
          }
          page.on("pageerror", (e) => pageErrors.push(`pageerror: ${e.message}`));
          page.on("console", (m) => {
            if (m.type() === "error") pageErrors.push(`console: ${m.text()}`);
          });
          return page;
        },
        async screenshot(page, name) {
          const path = `${SCREENSHOTS}/${safeName(name)}.png`;
          await page.screenshot({ path, fullPage: true });
          return path;
        },
      };

      const started = performance.now();
      let result: Result;
      try {
        await withTimeout(Promise.resolve().then(() => t.fn(ctx)), t.timeout, `test "${t.name}"`);
        result = { name: t.name, file: t.file, status: "passed", ms: performance.now() - started };
      } catch (err) {
        result = {
          name: t.name,
          file: t.file,
          status: "failed",
          ms: performance.now() - started,
          error: describeError(err),
        };
        // Keep what the page looked like at the moment of failure.
        for (const [i, c] of contexts.entries()) {
          for (const [j, p] of c.pages().entries()) {
            await p.screenshot({ path: `${SCREENSHOTS}/FAILED-${safeName(t.name)}-${i}-${j}.png`, fullPage: true })
              .catch(() => {});
          }
        }
      }
      const extraLogs = result.status === "failed"
        ? await Promise.all(extraServers.map(async (s) => `${s.baseUrl}:\n${await s.logTail(20)}`))
        : [];
      for (const c of contexts) await c.close().catch(() => {});
      for (const s of extraServers) {
        await s.stop();
        servers.splice(servers.indexOf(s), 1);
      }
      results.push(result);

      const secs = (result.ms / 1000).toFixed(1);
      if (result.status === "passed") {
        console.log(`  ✓ ${t.file} › ${t.name} (${secs} s)`);
      } else {
        console.log(`  ✗ ${t.file} › ${t.name} (${secs} s)`);
        console.log(indent(result.error ?? "", 6));
        if (pageErrors.length) console.log(indent(`browser errors:\n${pageErrors.join("\n")}`, 6));
        const tail = await shared.logTail(20);
        if (tail) console.log(indent(`server log (last lines):\n${tail}`, 6));
        for (const log of extraLogs) console.log(indent(`the test's own server ${log}`, 6));
      }
    }
  } catch (err) {
    console.error(`e2e: ${(err as Error)?.stack ?? err}`);
    for (const t of tests.slice(results.length)) {
      results.push({ name: t.name, file: t.file, status: "failed", ms: 0, error: "not run: harness failure" });
    }
  } finally {
    await browser?.close().catch(() => {});
    await Promise.allSettled(servers.map((s) => s.stop()));
    await Deno.remove(tmpRoot, { recursive: true }).catch(() => {});
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }

  const passed = results.filter((r) => r.status === "passed").length;
  const failed = results.filter((r) => r.status === "failed").length;
  // Repeated at the end: a CI log is often read from its tail.
  for (const r of results.filter((r) => r.status === "failed")) {
    console.log(`\nFAILED ${r.file} › ${r.name}`);
    console.log(indent(firstLines(r.error ?? "", 12), 2));
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

/** The stack, then each `cause` below it (a failed query's SQLite code lives there). */
function describeError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    parts.push(depth === 0 ? String((e as Error)?.stack ?? e) : `Caused by: ${String((e as Error)?.message ?? e)}`);
    e = (e as Error)?.cause;
  }
  return parts.join("\n");
}

/** The message and the frames that point into the test files, without the runner's own frames. */
function firstLines(text: string, max: number) {
  const lines = text.split("\n");
  const keep = lines.filter((l, i) => i === 0 || !/^\s+at /.test(l) || /e2e\//.test(l));
  const causes = lines.filter((l) => l.startsWith("Caused by: "));
  if (causes.length) return [...keep.filter((l) => !l.startsWith("Caused by: ")).slice(0, max), ...causes].join("\n");
  return keep.slice(0, max).join("\n");
}

function indent(text: string, n: number) {
  const pad = " ".repeat(n);
  return text.split("\n").map((l) => pad + l).join("\n");
}

Deno.exit(await main());
