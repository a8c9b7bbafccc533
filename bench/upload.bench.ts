/**
 * `deno task bench upload`: streamed uploads against the real server, started as a subprocess on a
 * free port with temporary directories. Uploads 10 MP3s of 50 MB (built by repeating the MPEG frames
 * of a fixture), one per request, waits for their processing, and reports MB/s and the server's
 * resident memory, read from /proc while it runs. The same with 5 MB files shows that the peak does
 * not grow with the file size. Targets: growth over the idle server ≤ 64 MB, and the 50 MB run's
 * growth within 16 MB of the 5 MB run's.
 */
import { type ServerProcess, startServer } from "../server/testing/server-process.ts";
import { multipartBody, repeatingStream } from "../server/testing/multipart-body.ts";

const FIXTURE = new URL("../test/fixtures/audio/Low%20Rate%20-%20128%20kbps.mp3", import.meta.url);
const MB = 1024 * 1024;


export { startServer };

/** Whole MPEG frames of the 128 kbps fixture (no tags), without its leading Info frame. */
export function mpegFrames(): Uint8Array {
  const data = Deno.readFileSync(FIXTURE);
  const frameLen = (i: number) => Math.floor((144 * 128000) / 44100) + ((data[i + 2] >> 1) & 1);
  let pos = frameLen(0);
  const start = pos;
  while (pos + frameLen(pos) <= data.byteLength && data[pos] === 0xff) pos += frameLen(pos);
  return data.subarray(start, pos);
}

/** A tiny ID3v2.3 tag with a distinct title, so that files built from the same frames differ. */
function id3Title(title: string): Uint8Array {
  const text = new TextEncoder().encode(title);
  const frame = new Uint8Array(10 + 1 + text.byteLength);
  frame.set(new TextEncoder().encode("TIT2"));
  new DataView(frame.buffer).setUint32(4, 1 + text.byteLength);
  frame.set(text, 11);
  const size = frame.byteLength;
  const header = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  const out = new Uint8Array(header.byteLength + size);
  out.set(header);
  out.set(frame, header.byteLength);
  return out;
}

/** A streamed MP3 of about `bytes` bytes: a distinct tag, then whole frames repeated. */
function mp3File(bytes: number, frames: Uint8Array, title: string) {
  const tag = id3Title(title);
  const audio = Math.floor((bytes - tag.byteLength) / frames.byteLength) * frames.byteLength;
  return {
    size: tag.byteLength + audio,
    stream: () =>
      ReadableStream.from((async function* () {
        yield tag;
        yield* repeatingStream(frames, audio);
      })()),
  };
}

async function waitProcessed(server: ServerProcess, headers: Record<string, string>, ids: number[]) {
  for (;;) {
    const states = await Promise.all(ids.map(async (id) => (await (await fetch(`${server.url}/api/status/${id}`, { headers })).json()).status));
    if (states.every((s) => s !== "processing")) return states;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(fileMb: number, files: number) {
  const server = await startServer({ MAX_UPLOAD_FILE_MB: String(Math.max(50, fileMb)) });
  try {
    const headers = await server.headers();
    const frames = mpegFrames();
    // Settle: let the idle server's memory stop moving before taking its figure.
    await new Promise((r) => setTimeout(r, 500));
    const idle = server.memory().rss;
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.memory().rss);
    }, 20);

    const ids: number[] = [];
    let sent = 0;
    const t0 = performance.now();
    for (let i = 0; i < files; i++) {
      const file = mp3File(fileMb * MB, frames, `bench ${fileMb} ${i}`);
      sent += file.size;
      const mp = multipartBody([
        { name: "directions", value: "label_neuropunk" },
        { name: "files", filename: `Bench Artist - Run ${fileMb} MB ${i}.mp3`, type: "audio/mpeg", data: file.stream },
      ]);
      const res = await fetch(`${server.url}/api/upload`, {
        method: "POST",
        headers: { ...headers, "content-type": mp.contentType },
        body: mp.body,
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
      ids.push(...body.track_ids);
    }
    const uploadS = (performance.now() - t0) / 1000;
    const states = await waitProcessed(server, headers, ids);
    const totalS = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, server.memory().rss);
    const { hwm } = server.memory();
    return {
      files,
      file_mb: fileMb,
      upload_mb_per_s: +(sent / MB / uploadS).toFixed(1),
      upload_s: +uploadS.toFixed(2),
      upload_and_processing_s: +totalS.toFixed(2),
      completed: states.filter((s) => s === "completed").length,
      idle_rss_mb: +(idle / MB).toFixed(1),
      peak_rss_mb: +(peak / MB).toFixed(1),
      growth_mb: +((peak - idle) / MB).toFixed(1),
      vm_hwm_mb: +(hwm / MB).toFixed(1),
    };
  } finally {
    await server.stop();
  }
}

export default async function () {
  const small = await run(5, 10);
  const large = await run(50, 10);
  const pass = large.growth_mb <= 64 && large.growth_mb <= small.growth_mb + 16 &&
    large.completed === large.files && small.completed === small.files;
  return { small, large, target: "growth ≤ 64 MB and not growing with file size", pass };
}
