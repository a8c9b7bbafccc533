/**
 * The resumable upload's figures (issue 26), run by `deno task bench upload-s3` (upload-s3.bench.ts):
 * ten 50 MB MP3s sent at the same moment through the resumable protocol (start, parts of
 * UPLOAD_PART_MB one after another per file, complete) against the real server as a subprocess, and
 * the server's resident memory sampled from /proc every 20 ms.
 *   - S3 (s3rver, its own Node process): the bench PUTs each part to its presigned address, as the
 *     browser does, so the server sees no audio byte. Target: growth ≤ 16 MB.
 *   - Local disk: the parts go to the server's part endpoint. Target: growth ≤ 64 MB.
 * Beside each, the old path (one POST /api/upload per file, multipart, also ten at once) on a fresh
 * server of the same kind: its loopback throughput and growth. The window closes when the last
 * upload has answered; the processing that each completed track then starts is not waited for
 * (upload.bench.ts measures it). Like upload.bench.ts, the idle figure is taken after one small track
 * has been processed, so loading the decoder is not counted as the uploads' growth.
 */
import { type ServerProcess, startServer } from "../server/testing/server-process.ts";
import { postTracks } from "../server/testing/multipart-body.ts";
import { mpegFrames } from "./upload.bench.ts";

const MB = 1024 * 1024;
const FIXTURE = new URL("../test/fixtures/audio/Low%20Rate%20-%20128%20kbps.mp3", import.meta.url);

/** `size` bytes of whole MPEG frames, repeated: the audio every bench file shares. */
function audioOf(size: number): Uint8Array {
  const frames = mpegFrames();
  const out = new Uint8Array(size);
  for (let off = 0; off < size; off += frames.byteLength) {
    out.set(frames.subarray(0, Math.min(frames.byteLength, size - off)), off);
  }
  return out;
}

/** A file: a distinct ID3-less head (a few bytes of a title in a junk-free frame slot) then the audio. */
interface BenchFile {
  name: string;
  size: number;
  /** Bytes [start, end) of the file, a view where it can be. */
  slice(start: number, end: number): Uint8Array;
}

function benchFile(audio: Uint8Array, i: number, label: string): BenchFile {
  // The first frame's bytes differ per file (its last byte), so no two files are duplicates.
  const head = audio.slice(0, 4096);
  head[head.byteLength - 1] = i;
  return {
    name: `Bench Artist - ${label} ${i}.mp3`,
    size: audio.byteLength,
    slice(start, end) {
      if (start >= head.byteLength) return audio.subarray(start, end);
      const out = audio.slice(start, end);
      out.set(head.subarray(start, Math.min(end, head.byteLength)));
      return out;
    },
  };
}

async function waitProcessed(server: ServerProcess, headers: Record<string, string>, id: number) {
  for (let i = 0; i < 600; i++) {
    const status = (await (await fetch(`${server.url}/api/status/${id}`, { headers })).json()).status;
    if (status !== "processing") return status;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("warm-up track still processing");
}

/** The idle server after one processed track (the decoder loaded), and a sampler of its peak. */
async function warmAndWatch(server: ServerProcess, headers: Record<string, string>) {
  const [warm] = await postTracks(server.url, headers, [{
    name: "files",
    filename: "Bench Artist - Warm-up.mp3",
    type: "audio/mpeg",
    data: Deno.readFileSync(FIXTURE),
  }]);
  const state = await waitProcessed(server, headers, warm);
  if (state !== "completed") throw new Error(`warm-up track: ${state}`);
  await new Promise((r) => setTimeout(r, 500));
  const idle = server.memory().rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.memory().rss);
  }, 20);
  return {
    idle,
    stop() {
      clearInterval(sampler);
      return Math.max(peak, server.memory().rss);
    },
  };
}

async function api(server: ServerProcess, headers: Record<string, string>, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** One file through the resumable protocol, as the upload page sends it: parts one after another. */
async function resumableUpload(server: ServerProcess, headers: Record<string, string>, file: BenchFile) {
  const { upload } = await api(server, headers, "/api/upload/resumable", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ filename: file.name, size: file.size, directions: "label_neuropunk" }),
  });
  for (let n = 1; n <= upload.part_count; n++) {
    const bytes = file.slice((n - 1) * upload.part_size, Math.min(file.size, n * upload.part_size));
    if (upload.mode === "s3") {
      const res = await fetch(upload.part_urls[n], { method: "PUT", body: bytes as Uint8Array<ArrayBuffer> });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`part ${n} to the bucket: ${res.status}`);
    } else {
      await api(server, headers, `/api/upload/resumable/${upload.id}/parts/${n}`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
    }
  }
  const done = await api(server, headers, `/api/upload/resumable/${upload.id}/complete`, { method: "POST" });
  return done.track_id as number;
}

/** One file in one POST /api/upload (the old path), streamed part by part of its bytes. */
async function multipartUpload(server: ServerProcess, headers: Record<string, string>, file: BenchFile) {
  const chunk = MB;
  const data = () =>
    ReadableStream.from((function* () {
      for (let off = 0; off < file.size; off += chunk) yield file.slice(off, Math.min(file.size, off + chunk));
    })());
  const [id] = await postTracks(server.url, headers, [{
    name: "files",
    filename: file.name,
    type: "audio/mpeg",
    data,
  }]);
  return id;
}

export interface PathRun {
  files: number;
  file_mb: number;
  upload_s: number;
  mb_per_s: number;
  idle_rss_mb: number;
  growth_mb: number;
}

/** Ten (or `files`) uploads at once through one path on a fresh server; the figures. */
export async function runPath(
  path: "resumable" | "multipart",
  env: Record<string, string>,
  fileMb = 50,
  files = 10,
): Promise<PathRun> {
  const server = await startServer({ MAX_UPLOAD_FILE_MB: String(fileMb + 1), MAX_TRACK_MINUTES: "60", ...env });
  try {
    const headers = await server.headers();
    const audio = audioOf(fileMb * MB);
    const list = Array.from({ length: files }, (_, i) => benchFile(audio, i, `${path} ${fileMb} MB`));
    const watch = await warmAndWatch(server, headers);
    const t0 = performance.now();
    const send = path === "resumable" ? resumableUpload : multipartUpload;
    await Promise.all(list.map((f) => send(server, headers, f)));
    const seconds = (performance.now() - t0) / 1000;
    const peak = watch.stop();
    return {
      files,
      file_mb: fileMb,
      upload_s: +seconds.toFixed(2),
      mb_per_s: +((files * fileMb) / seconds).toFixed(1),
      idle_rss_mb: +(watch.idle / MB).toFixed(1),
      growth_mb: +((peak - watch.idle) / MB).toFixed(1),
    };
  } finally {
    await server.stop();
  }
}
