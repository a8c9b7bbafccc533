/**
 * Test tooling: a throw-away s3rver (npm `s3rver`, pinned in deno.json) on a port the OS picks, with
 * its data in a temp directory and one bucket configured. Used by the S3 storage tests.
 *
 * It runs under Node with `--openssl-legacy-provider`: s3rver 3.7.1 makes ListObjectsV2
 * continuation tokens with DES, which Deno's node:crypto lacks ("Unknown cipher") and OpenSSL 3
 * keeps in its legacy provider; without it every truncated listing answers 500.
 *
 * s3rver is a stand-in, not S3: it does not check V4 signatures (only that the access key id is its
 * own, `S3RVER`), nor the 5 MiB minimum part size, and it answers ListMultipartUploads with 501 and
 * has no lifecycle rules. See docs/decisions/0110-s3-object-storage.md. ListParts and
 * AbortMultipartUpload, which it lacks too, are added by `s3rver-multipart-extras.cjs` (preloaded),
 * and the bucket gets the CORS rule of `s3rver-cors.xml`, so a browser can PUT parts to presigned
 * addresses (issue 26, docs/decisions/0253).
 */

/** The credentials s3rver knows: any other access key id gets InvalidAccessKeyId. */
export const S3RVER_ACCESS_KEY_ID = "S3RVER";
export const S3RVER_SECRET_ACCESS_KEY = "S3RVER";

export interface S3Server {
  /** Path-style base address, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** s3rver's data directory (objects, unfinished multipart uploads). */
  dir: string;
  stop(): Promise<void>;
}

const REPO_ROOT = new URL("../../", import.meta.url);
const LISTENING = /S3rver listening on [^\s:]+:(\d+)/;

/** The node binary (on PATH or in the usual places), or null when it is not installed. */
export async function findNode(): Promise<string | null> {
  const dirs = [...(Deno.env.get("PATH") ?? "").split(":").filter(Boolean), "/usr/bin", "/usr/local/bin"];
  for (const dir of dirs) {
    try {
      const s = await Deno.stat(`${dir}/node`);
      if (s.isFile) return `${dir}/node`;
    } catch { /* not here */ }
  }
  return null;
}

/**
 * s3rver's command-line script in the project's node_modules. Deno puts it there when it installs
 * the import map (`"nodeModulesDir": "auto"`); if it is missing, resolving the pinned specifier once
 * installs it.
 */
async function s3rverScript(): Promise<string> {
  const script = new URL("node_modules/s3rver/bin/s3rver.js", REPO_ROOT);
  const exists = () => Deno.stat(script).then((s) => s.isFile, () => false);
  if (await exists()) return script.pathname;
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", REPO_ROOT)));
  const spec = config?.imports?.s3rver;
  if (typeof spec !== "string") throw new Error('deno.json has no "s3rver" import');
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", spec, "--version"],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!(await exists())) {
    throw new Error(`s3rver is not installed and could not be (${new TextDecoder().decode(out.stderr).trim()})`);
  }
  return script.pathname;
}

/** Keeps reading a child's output (so its pipe never fills) and remembers the last few KB. */
function drain(stream: ReadableStream<Uint8Array>, onText?: (all: string) => void): { text(): string } {
  let tail = "";
  (async () => {
    try {
      const decoder = new TextDecoder();
      for await (const bytes of stream) {
        tail = (tail + decoder.decode(bytes, { stream: true })).slice(-16_384);
        onText?.(tail);
      }
    } catch { /* the child is gone */ }
  })();
  return { text: () => tail };
}

async function answers(endpoint: string, bucket: string): Promise<boolean> {
  try {
    // Unsigned requests skip s3rver's authentication; a 200 listing proves the bucket exists.
    const res = await fetch(`${endpoint}/${bucket}?list-type=2&max-keys=0`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts s3rver and waits until it lists the bucket. `-p 0` lets the OS choose the port and s3rver
 * prints it, so there is no race between picking a free port and binding it. Throws when s3rver
 * cannot start (no node, or the package is not installed and no registry can be reached).
 */
export async function startS3Server(opts: { bucket?: string; timeoutMs?: number } = {}): Promise<S3Server> {
  const bucket = opts.bucket ?? "test-bucket";
  const node = await findNode();
  if (!node) throw new Error("node is not installed (s3rver is a Node program)");
  const script = await s3rverScript();
  const dir = await Deno.makeTempDir({ prefix: "np-s3rver-" });
  const child = new Deno.Command(node, {
    args: [
      "--openssl-legacy-provider",
      "--require",
      new URL("./s3rver-multipart-extras.cjs", import.meta.url).pathname,
      script,
      "--directory",
      dir,
      "--address",
      "127.0.0.1",
      "--port",
      "0",
      "--silent",
      "--configure-bucket",
      bucket,
      new URL("./s3rver-cors.xml", import.meta.url).pathname,
    ],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  let port = 0;
  const out = drain(child.stdout, (text) => {
    const m = LISTENING.exec(text);
    if (m && !port) port = Number(m[1]);
  });
  const err = drain(child.stderr);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!exited && Date.now() < deadline) {
    if (port) {
      const endpoint = `http://127.0.0.1:${port}`;
      if (await answers(endpoint, bucket)) {
        return {
          endpoint,
          bucket,
          accessKeyId: S3RVER_ACCESS_KEY_ID,
          secretAccessKey: S3RVER_SECRET_ACCESS_KEY,
          region: "us-east-1",
          dir,
          stop,
        };
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(
    `s3rver did not start (${exited ? "it exited" : "timed out"}):\n${err.text()}${out.text()}`.trimEnd(),
  );
}

/**
 * For test files: a running s3rver, or null with a notice when it cannot start, so the S3 tests are
 * left out on a machine without the package. Under CI=true that is a failure instead (as for
 * redis-server in the status-store tests).
 */
export async function startS3ServerForTests(opts: { bucket?: string } = {}): Promise<S3Server | null> {
  try {
    return await startS3Server(opts);
  } catch (err) {
    if (Deno.env.get("CI") === "true") throw err;
    console.warn(`NOTICE: s3rver could not start, so the S3 storage tests are left out: ${(err as Error).message}`);
    return null;
  }
}
