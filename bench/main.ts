/**
 * `deno task bench`: runs every bench/*.bench.ts module in turn and prints its figures.
 * Each module exports `default async function (): Promise<Record<string, unknown>>`.
 * Targets are ratios measured on the same machine in the same run; tests never assert timings.
 */
const only = Deno.args[0];
const files = [...Deno.readDirSync(new URL(".", import.meta.url))]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".bench.ts") && (!only || n.includes(only)))
  .sort();
let failed = false;
for (const name of files) {
  console.log(`\n=== ${name} ===`);
  const mod = await import(new URL(name, import.meta.url).href);
  try {
    const result = await mod.default();
    console.log(JSON.stringify(result, null, 2));
    if (result && result.pass === false) failed = true;
  } catch (err) {
    failed = true;
    console.error(`${name} failed:`, err);
  }
}
if (failed) {
  console.error("\nSome targets were missed (see above).");
  Deno.exit(1);
}
