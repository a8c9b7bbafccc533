/**
 * `deno task bench master`: a release's 300 MB master checked (issue 34: server/releases/materials/
 * check.ts over server/audio/analyse-lossless.ts).
 *
 * The file is a 24-bit 48 kHz stereo WAV of 300 MB (about 18 minutes) playing the fingerprint
 * fixture's demo over and over (server/testing/master-audio.ts `wavStream`), written to disk once.
 * A fresh child process (this module with `--child <dir>`) warms up on a 4 MB file, then checks the
 * 300 MB one from local storage exactly as the server does (decoded, loudness, true peak, clipping,
 * fingerprint, judged against the demo), and reports:
 * - the real-time factor: seconds of audio per second of CPU the check used (and per wall second);
 * - the memory growth: the peak resident size (VmHWM) after, over the warmed-up process's.
 * Targets: growth ≤ 64 MB (as for MP3s); speed ≥ 20× real time, so a 300 MB master is checked
 * within a minute of CPU.
 */
import process from "node:process";
import { createLocalStorage } from "../server/storage/file-storage.ts";
import { createLogger } from "../server/lib/logger.ts";
import { judgeStoredFile } from "../server/releases/materials/check.ts";
import { analyseMp3Frames } from "../server/audio/analyse-mp3.ts";
import { decodeMp3, resample, wavStream } from "../server/testing/master-audio.ts";

const DEMO = decodeURIComponent(
  new URL("../test/fixtures/audio/fingerprint/Print Artist - Original.mp3", import.meta.url).pathname,
);
const MB = 1024 * 1024;
const FILE_MB = 300;
const TARGET_GROWTH_MB = 64;
const TARGET_SPEED = 20;

function memory() {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { hwmMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

async function writeWav(dir: string, name: string, mb: number) {
  const pcm = resample(await decodeMp3(DEMO), 48_000);
  const { stream } = wavStream(pcm, 24, mb * MB);
  const file = await Deno.open(`${dir}/${name}`, { write: true, create: true, truncate: true });
  await stream.pipeTo(file.writable);
}

/** Child mode: warm up, then check `dir/master.wav` and print one JSON line. */
async function child(dir: string) {
  const storage = createLocalStorage(dir);
  const d = {
    db: null as never,
    storage,
    logger: createLogger("silent"),
    clock: { now: () => new Date() },
    maxMinutes: 60,
  };
  const { analysis, fingerprint } = await analyseMp3Frames((await Deno.open(DEMO)).readable);
  const demo = { duration_s: analysis.duration_s, fingerprint: fingerprint.codes };
  await judgeStoredFile(d, "master", "warm.wav", demo);
  const before = memory();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const verdict = await judgeStoredFile(d, "master", "master.wav", demo);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const after = memory();
  console.log(JSON.stringify({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    before,
    after,
    duration_s: verdict.report?.duration_s ?? null,
    state: verdict.state,
  }));
}

export default async function (): Promise<Record<string, unknown>> {
  const dir = await Deno.makeTempDir({ prefix: "bench-master-" });
  try {
    await writeWav(dir, "warm.wav", 4);
    await writeWav(dir, "master.wav", FILE_MB);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--child", dir],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error("the child failed");
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    const r = JSON.parse(lines[lines.length - 1]);
    const growth = r.after.hwmMb - r.before.hwmMb;
    const speed = r.duration_s / r.cpuSeconds;
    const speedPass = speed >= TARGET_SPEED;
    const memoryPass = growth <= TARGET_GROWTH_MB;
    console.log(
      `300 MB master (${(r.duration_s / 60).toFixed(1)} min of 24-bit 48 kHz): ${speed.toFixed(0)}× real time on CPU ` +
        `(${(r.duration_s / r.seconds).toFixed(0)}× wall), peak RSS +${
          growth.toFixed(1)
        } MB (target ≤ ${TARGET_GROWTH_MB} MB)`,
    );
    return {
      file_mb: +(Deno.statSync(`${dir}/master.wav`).size / MB).toFixed(1),
      audio_s: r.duration_s,
      check_wall_s: +r.seconds.toFixed(2),
      check_cpu_s: +r.cpuSeconds.toFixed(2),
      realtime_factor_cpu: +speed.toFixed(1),
      realtime_factor_wall: +(r.duration_s / r.seconds).toFixed(1),
      peak_before_mb: +r.before.hwmMb.toFixed(1),
      peak_after_mb: +r.after.hwmMb.toFixed(1),
      peak_growth_mb: +growth.toFixed(1),
      speed_pass: speedPass,
      memory_pass: memoryPass,
      pass: speedPass && memoryPass,
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main && Deno.args[0] === "--child") await child(Deno.args[1]);
