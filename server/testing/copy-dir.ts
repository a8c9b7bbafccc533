/**
 * Copies a directory tree (files and folders only), leaving out top-level entries `skip` names: how
 * the e2e runner and the no-local-disk test give a server its own copy of `static/` without uploads.
 */
export async function copyDir(from: string, to: string, skip: (name: string) => boolean = () => false): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (skip(e.name)) continue;
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}
