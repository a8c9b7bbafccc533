/**
 * Test tooling: another process takes the database's write lock for `ms` (as `deno task login-link`
 * or a second server would), having run `sql` in its transaction. Resolves once the lock is held.
 */
export async function holdWriteLock(url: string, ms: number, sql: string) {
  const code = `
    import { openDb } from "${new URL("../client.ts", import.meta.url).href}";
    const db = await openDb({ url: ${JSON.stringify(url)} });
    const tx = await db.$client.transaction("write");
    await tx.execute(${JSON.stringify(sql)});
    console.log("locked");
    await new Promise((r) => setTimeout(r, ${ms}));
    await tx.commit();
    db.$client.close();
  `;
  const child = new Deno.Command(Deno.execPath(), { args: ["eval", "--ext=ts", code], stdout: "piped" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the lock holder exited before taking the lock");
    out += value;
  }
  return {
    /** Waits for the holder to commit and exit; true when it did so cleanly. */
    async released(): Promise<boolean> {
      const status = await child.status;
      await reader.cancel();
      return status.success;
    },
  };
}
