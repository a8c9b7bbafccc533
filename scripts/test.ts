/**
 * `deno task test`: the whole suite. Unit, API and component tests (vitest), then the end-to-end
 * tests in real Chromium against the built app served by the real server (scripts/e2e.ts).
 */
const deno = Deno.execPath();

async function run(label: string, args: string[]): Promise<boolean> {
  console.log(`\n=== ${label} ===`);
  const { code } = await new Deno.Command(deno, { args, stdout: "inherit", stderr: "inherit" }).output();
  return code === 0;
}

const unitOk = await run("unit and API tests (vitest)", ["run", "-A", "npm:vitest@5.1.0", "run"]);
const e2eOk = await run("end-to-end tests (Chromium)", ["run", "-A", "scripts/e2e.ts"]);
if (!unitOk || !e2eOk) {
  console.error(`\nFAILED: ${[!unitOk && "unit/API", !e2eOk && "end-to-end"].filter(Boolean).join(", ")}`);
  Deno.exit(1);
}
console.log("\nAll test suites passed.");
