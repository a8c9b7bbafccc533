/**
 * `deno task test`: the whole suite. A type check, lint and format check of every part, the unit, API and component tests
 * (vitest), then the end-to-end tests in real Chromium against the built app served by the real
 * server (scripts/e2e.ts). Ends with one `N passed, M failed` line over both test runners.
 */
const deno = Deno.execPath();

/** Runs a stage, streaming its output, and keeps the tail to read its counts from. */
async function run(label: string, args: string[], env: Record<string, string> = {}) {
  console.log(`\n=== ${label} ===`);
  const child = new Deno.Command(deno, { args, env, stdout: "piped", stderr: "inherit" }).spawn();
  let tail = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-16_384);
  }
  const { code } = await child.status;
  return { ok: code === 0, tail };
}

const counts = { passed: 0, failed: 0, skipped: 0 };

const typeCheck = await run("type check (deno check)", [
  "check",
  "server/",
  "db/",
  "client/",
  "scripts/",
  "bench/",
  "e2e/",
  "domain/",
]);
const lint = await run("lint (deno lint)", ["lint"]);
const format = await run("format (deno fmt --check)", ["fmt", "--check"]);

const vitestReport = await Deno.makeTempFile({ suffix: ".json" });
const unit = await run("unit, API and component tests (vitest)", [
  "run",
  "-A",
  "npm:vitest@5.1.0",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
try {
  const report = JSON.parse(await Deno.readTextFile(vitestReport));
  counts.passed += report.numPassedTests ?? 0;
  counts.failed += report.numFailedTests ?? 0;
  counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (!unit.ok && !report.numFailedTests) counts.failed += 1; // a suite that failed to load
} catch {
  if (!unit.ok) counts.failed += 1;
}
await Deno.remove(vitestReport).catch(() => {});

const e2e = await run("end-to-end tests (Chromium)", ["run", "-A", "scripts/e2e.ts"]);
const e2eLine = [...e2e.tail.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].pop();
if (e2eLine) {
  counts.passed += Number(e2eLine[1]);
  counts.failed += Number(e2eLine[2]);
  counts.skipped += Number(e2eLine[3] ?? 0);
} else if (!e2e.ok) counts.failed += 1;

const stagesFailed = [
  !typeCheck.ok && "type check",
  !lint.ok && "lint",
  !format.ok && "format",
  !unit.ok && "unit/API",
  !e2e.ok && "end-to-end",
].filter(Boolean);
console.log(
  `\nTotal: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}`,
);
if (stagesFailed.length) {
  console.error(`FAILED: ${stagesFailed.join(", ")}`);
  Deno.exit(1);
}
