/**
 * `deno task bench analysis`: the streaming audio analysis (server/audio/analyse-mp3.ts).
 *
 * - Speed: a 6-minute 320 kbps file, built by repeating the MPEG frames of the 8 s fixture (every
 *   frame stands alone; its ID3 tag and Info frame are left out), analysed in a child process pinned
 *   to one core (taskset) after a warm-up on the fixture. Target: ≥ 150× real time, judged on the CPU
 *   time the analysis used (the wall-clock figure is printed too; it is lower on a busy machine).
 * - Memory: a 50 MB file built the same way, read from disk as a stream in a fresh child process;
 *   growth of the peak resident size (VmHWM in /proc/self/status) over the warmed-up process.
 *   Target: ≤ 64 MB.
 * - Processing: the same 50 MB file through the whole processing pass (server/processing/
 *   analyse-track.ts: SHA-256, frame count, music-metadata and the analysis from one read), in a
 *   fresh child: time and peak growth. Target: ≤ 64 MB, as for the analysis alone.
 * - Tempo (issue 22): the synthetic grooves of server/testing/grooves.ts (two-step at 160–180 BPM,
 *   half time at 85–87, 140 dubstep, 128 house), encoded by ffmpeg (libmp3lame) at 320, 192 and
 *   128 kbps CBR and V0, at 44.1 and 48 kHz, mono and stereo (the formats alternate per groove), and
 *   analysed from the MP3: tempo within ±1 BPM of the truth (half time folded) on ≥ 95 %, no reading
 *   at 2/3, 3/4, 4/3 or 3/2 of it, and the "outside drum and bass" warning for exactly the grooves
 *   outside 160–190. Skipped (and said so) without ffmpeg.
 * - Drop (0214): the same MP3s, whose sub bass enters at DROP_AT_S: the drop within ±1 s on ≥ 95 %.
 * - Outside references (bench/analysis-references.ts, decision 0219): loudness and true peak against
 *   ffmpeg's ebur128 per file, and real produced music (the LMMS demo projects, rendered by lmms)
 *   against the tempo its project states.
 * - Key (issue 22): the chord loops of server/testing/chords.ts in all 24 keys (20 s, tuned up to
 *   25 cents off A = 440 Hz, three in four over the two-step groove), each encoded at 320, 192 and
 *   128 kbps CBR and V0, the format alternating as for tempo (44.1 or 48 kHz, mono or stereo: each
 *   key meets all four), 96 files analysed from the MP3: key right on ≥ 85 %, and the relative key
 *   or a fifth away on all the rest. Skipped (and said so) without ffmpeg.
 * - Key on real compositions (issue 38): bench/key-references.ts over bench/key-corpus.ts (ABC tunes
 *   and multi-instrument arrangements rendered by fluidsynth): exact / fifth / relative / parallel /
 *   other, the MIREX score, and the accuracy at or above the confidence the desk shows as sure.
 *   Printed, not yet judged in `pass` (its targets are not met: README, decision 0410).
 * The child is this module run with `--child <file>` (or `--child-processing <file>`): it prints one
 * JSON line.
 */
import process from "node:process";
import { analyseMp3 } from "../server/audio/analyse-mp3.ts";
import { parseFrameHeader } from "../server/audio/mpeg-frames.ts";
import { createLocalStorage } from "../server/storage/file-storage.ts";
import { analyseTrack } from "../server/processing/analyse-track.ts";
import { expectedBpm, groove, type GroovePattern } from "../server/testing/grooves.ts";
import { outsideReferences } from "./analysis-references.ts";
import { keyReferences } from "./key-references.ts";
import { CHORD_KEYS, chordTrack, keyVerdict } from "../server/testing/chords.ts";

const FIXTURE = new URL("../test/fixtures/audio/Test%20Artist%20-%20Amen%20Study.mp3", import.meta.url);
const MB = 1024 * 1024;
const SPEED_SECONDS = 6 * 60;
const MEMORY_BYTES = 50 * MB;
const TARGET_SPEED = 150;
const TARGET_GROWTH_MB = 64;

/** The fixture's audio frames, back to back: no ID3 tag, no Xing/Info frame. */
function audioFrames(): { bytes: Uint8Array; seconds: number } {
  const data = Deno.readFileSync(FIXTURE);
  let pos = 0;
  if (data[0] === 0x49 && data[1] === 0x44 && data[2] === 0x33) {
    pos = 10 + ((data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]);
  }
  const start: number[] = [];
  let samples = 0;
  let sampleRate = 0;
  for (let first = true;;) {
    const h = pos + 4 <= data.length ? parseFrameHeader(data, pos) : null;
    if (!h || pos + h.length > data.length) break;
    const tag = String.fromCharCode(...data.subarray(pos + h.sideInfoEnd, pos + h.sideInfoEnd + 4));
    if (!(first && (tag === "Info" || tag === "Xing"))) {
      start.push(pos);
      samples += h.samples;
      sampleRate = h.sampleRate;
    }
    first = false;
    pos += h.length;
  }
  return { bytes: data.subarray(start[0], pos), seconds: samples / sampleRate };
}

/** Writes copies of the frames until `enough` says stop; gives the file's seconds of audio (analysis-dump.ts too). */
export function buildFile(path: string, enough: (bytes: number, seconds: number) => boolean): number {
  const frames = audioFrames();
  const file = Deno.openSync(path, { write: true, create: true, truncate: true });
  let bytes = 0;
  let seconds = 0;
  try {
    while (!enough(bytes, seconds)) {
      for (let w = 0; w < frames.bytes.length;) w += file.writeSync(frames.bytes.subarray(w));
      bytes += frames.bytes.length;
      seconds += frames.seconds;
    }
  } finally {
    file.close();
  }
  return seconds;
}

function memory() {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { hwmMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

/** Child mode: warm up on the fixture, then analyse `path` from disk and report time and memory. */
async function child(path: string) {
  await analyseMp3((await Deno.open(FIXTURE)).readable);
  const before = memory();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await analyseMp3((await Deno.open(path)).readable);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const after = memory();
  console.log(JSON.stringify({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    before,
    after,
    result: { ...result, peaks: result.peaks.length },
  }));
}

/** Child mode: the whole processing pass over `path` (after a warm-up on the fixture), as a stored upload. */
async function childProcessing(path: string) {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const storage = createLocalStorage(dir);
  const fixture = await Deno.makeTempFile({ dir, prefix: "warm-" });
  await Deno.copyFile(FIXTURE, fixture);
  await analyseTrack(storage, fixture.slice(dir.length + 1));
  await Deno.remove(fixture);
  const before = memory();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const verdict = await analyseTrack(storage, path.slice(dir.length + 1));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const after = memory();
  if (verdict.status !== "completed") throw new Error(`processing failed: ${verdict.error}`);
  console.log(JSON.stringify({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    before,
    after,
    result: { duration_s: verdict.analysis.duration_s },
  }));
}

async function runChild(path: string, pin: boolean, mode = "--child") {
  const deno = Deno.execPath();
  const args = ["run", "-A", new URL(import.meta.url).pathname, mode, path];
  const canPin = pin && Deno.build.os === "linux" && (await Deno.stat("/usr/bin/taskset").catch(() => null)) !== null;
  const out = await new Deno.Command(canPin ? "taskset" : deno, {
    args: canPin ? ["-c", "0", deno, ...args] : args,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`analysis child failed (${out.code})`);
  return { pinned: canPin, ...JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!) };
}

const TEMPO_GROOVES: [GroovePattern, number][] = [
  ...[160, 165, 170, 172, 174, 175, 178, 180].map((bpm) => ["two-step", bpm] as [GroovePattern, number]),
  ["two-step", 85],
  ["two-step", 86],
  ["two-step", 87],
  ["dubstep", 140],
  ["house", 128],
];
const TEMPO_ENCODINGS = [["-b:a", "320k"], ["-b:a", "192k"], ["-b:a", "128k"], ["-q:a", "0"]];
const TEMPO_FORMATS: [number, 1 | 2][] = [[44100, 2], [48000, 1], [44100, 1], [48000, 2]];
const TARGET_TEMPO_SHARE = 0.95;
/** The grooves' sub bass enters here (and the drop should be read within ±1 s of it, on ≥ 95 %: 0214). */
const DROP_AT_S = 10;
const TARGET_DROP_SHARE = 0.95;

/** Interleaved little-endian float32, as `ffmpeg -f f32le` reads it. */
function interleave(channels: Float32Array[]): Uint8Array {
  const n = channels[0].length;
  const out = new Float32Array(n * channels.length);
  for (let i = 0; i < n; i++) for (let c = 0; c < channels.length; c++) out[i * channels.length + c] = channels[c][i];
  return new Uint8Array(out.buffer);
}

async function tempoCorpus(dir: string) {
  const hasFfmpeg = await new Deno.Command("ffmpeg", { args: ["-version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success).catch(() => false);
  if (!hasFfmpeg) {
    console.log("tempo: skipped (no ffmpeg)");
    return null;
  }
  let files = 0, within = 0, thirds = 0, warningsRight = 0, dropWithin = 0, dropEarly = 0;
  const misses: string[] = [];
  for (const [g, [pattern, bpm]] of TEMPO_GROOVES.entries()) {
    for (const [e, encoding] of TEMPO_ENCODINGS.entries()) {
      const [rate, channels] = TEMPO_FORMATS[(g + e) % TEMPO_FORMATS.length];
      const pcm = interleave(
        groove({ pattern, bpm, seconds: 30, sampleRate: rate, channels, bassFrom: DROP_AT_S, seed: g + 1 }),
      );
      const mp3 = `${dir}/groove-${g}-${e}.mp3`;
      const enc = new Deno.Command("ffmpeg", {
        args: [
          "-v",
          "error",
          "-y",
          "-f",
          "f32le",
          "-ar",
          `${rate}`,
          "-ac",
          `${channels}`,
          "-i",
          "pipe:0",
          "-c:a",
          "libmp3lame",
          ...encoding,
          mp3,
        ],
        stdin: "piped",
        stderr: "inherit",
      }).spawn();
      const writer = enc.stdin.getWriter();
      await writer.write(pcm);
      await writer.close();
      if (!(await enc.status).success) throw new Error(`ffmpeg failed on ${mp3}`);
      const a = await analyseMp3((await Deno.open(mp3)).readable);
      await Deno.remove(mp3);
      const truth = expectedBpm({ bpm });
      files++;
      const ok = a.bpm !== null && Math.abs(a.bpm - truth) <= 1;
      if (ok) within++;
      else misses.push(`${pattern} ${bpm} ${rate} Hz ${channels} ch ${encoding.join(" ")}: ${a.bpm}`);
      // Tempo octaves aside (× 2 and ½ are what folding is for), a 2:3 or 3:4 reading.
      const ratio = a.bpm === null ? 1 : a.bpm / truth;
      if ([2 / 3, 3 / 4, 4 / 3, 3 / 2, 1 / 3, 3].some((r) => [1, 2, 0.5].some((o) => Math.abs(ratio - r * o) < 0.01))) {
        thirds++;
      }
      const dropOk = a.drop_s !== null && Math.abs(a.drop_s - DROP_AT_S) <= 1;
      if (dropOk) dropWithin++;
      if (a.drop_s !== null && a.drop_s < DROP_AT_S - 0.4) dropEarly++; // on a kick a beat or more before
      // A miss is a drop outside ±1 s (the early ones are counted above, and listed here when out).
      if (!dropOk) {
        misses.push(`drop of ${pattern} ${bpm} ${rate} Hz ${channels} ch ${encoding.join(" ")}: ${a.drop_s}`);
      }
      const outside = truth < 160 || truth > 190;
      if (a.warnings.includes("tempo_outside_dnb") === outside) warningsRight++;
    }
  }
  const share = within / files;
  const pass = share >= TARGET_TEMPO_SHARE && thirds === 0 && warningsRight === files;
  console.log(
    `tempo: ${within}/${files} grooves within ±1 BPM (target ≥ ${
      TARGET_TEMPO_SHARE * 100
    } %), ${thirds} at 2:3 or 3:4 ` +
      `(target 0), warning right on ${warningsRight}/${files}: ${pass ? "pass" : "FAIL"}`,
  );
  const dropPass = dropWithin / files >= TARGET_DROP_SHARE;
  console.log(
    `drop: ${dropWithin}/${files} grooves within ±1 s of the bass's entry (target ≥ ${
      TARGET_DROP_SHARE * 100
    } %), ${dropEarly} over 0.4 s early: ${dropPass ? "pass" : "FAIL"}`,
  );
  for (const m of misses) console.log(`  missed: ${m}`);
  return {
    tempo_files: files,
    tempo_within_1_bpm: within,
    tempo_two_thirds_errors: thirds,
    tempo_warning_right: warningsRight,
    tempo_pass: pass,
    drop_within_1_s: dropWithin,
    drop_over_0_4_s_early: dropEarly,
    drop_pass: dropPass,
  };
}

const TARGET_KEY_SHARE = 0.85;

/** Issue 22's key figures over the chord corpus, from MP3s made by ffmpeg; null without ffmpeg. */
async function keyCorpus(dir: string) {
  const hasFfmpeg = await new Deno.Command("ffmpeg", { args: ["-version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success).catch(() => false);
  if (!hasFfmpeg) {
    console.log("key: skipped (no ffmpeg)");
    return null;
  }
  const tally = { right: 0, neighbour: 0, other: 0 };
  const misses: string[] = [];
  for (const [i, k] of CHORD_KEYS.entries()) {
    for (const [e, encoding] of TEMPO_ENCODINGS.entries()) {
      const [rate, channels] = TEMPO_FORMATS[(i + e) % TEMPO_FORMATS.length];
      const pcm = chordTrack({
        tonic: k.tonic,
        mode: k.mode,
        seconds: 20,
        sampleRate: rate,
        channels,
        drums: (i + e) % 4 !== 3,
        tuningCents: ((i * 7 + e * 3) % 11) * 5 - 25,
        seed: i + 1,
      });
      const mp3 = `${dir}/key-${i}-${e}.mp3`;
      const enc = new Deno.Command("ffmpeg", {
        args: ["-v", "error", "-y", "-f", "f32le", "-ar", `${rate}`, "-ac", `${channels}`, "-i", "pipe:0"]
          .concat(["-c:a", "libmp3lame", ...encoding, mp3]),
        stdin: "piped",
        stderr: "inherit",
      }).spawn();
      const writer = enc.stdin.getWriter();
      await writer.write(interleave(pcm));
      await writer.close();
      if (!(await enc.status).success) throw new Error(`ffmpeg failed on ${mp3}`);
      const a = await analyseMp3((await Deno.open(mp3)).readable);
      await Deno.remove(mp3);
      const verdict = keyVerdict(k.camelot, a.camelot);
      tally[verdict]++;
      if (verdict !== "right") {
        misses.push(`${k.key} ${rate} Hz ${channels} ch ${encoding.join(" ")}: ${a.key} (${verdict})`);
      }
    }
  }
  const files = tally.right + tally.neighbour + tally.other;
  const share = tally.right / files;
  const pass = share >= TARGET_KEY_SHARE && tally.other === 0;
  console.log(
    `key: right ${tally.right}/${files} (${(share * 100).toFixed(1)} %; target ≥ ${TARGET_KEY_SHARE * 100} %), ` +
      `relative/fifth ${tally.neighbour}, other ${tally.other} (target 0): ${pass ? "pass" : "FAIL"}`,
  );
  for (const m of misses) console.log(`  missed: ${m}`);
  return {
    key_files: files,
    key_right: tally.right,
    key_relative_or_fifth: tally.neighbour,
    key_other: tally.other,
    key_pass: pass,
  };
}

export default async function run() {
  const dir = await Deno.makeTempDir({ prefix: "np-analysis-bench-" });
  try {
    const speedFile = `${dir}/six-minutes.mp3`;
    const audioSeconds = buildFile(speedFile, (_, s) => s >= SPEED_SECONDS);
    const speed = await runChild(speedFile, true);
    // Judged on the CPU time the pinned process used: on a shared machine the wall clock also counts
    // the time other processes held that core. Both are reported.
    const realTime = speed.result.duration_s / speed.cpuSeconds;
    const wallRealTime = speed.result.duration_s / speed.seconds;

    const memoryFile = `${dir}/fifty-mb.mp3`;
    buildFile(memoryFile, (b) => b >= MEMORY_BYTES);
    const mem = await runChild(memoryFile, false);
    const growth = mem.after.hwmMb - mem.before.hwmMb;

    const processing = await runChild(memoryFile, false, "--child-processing");
    const processingGrowth = processing.after.hwmMb - processing.before.hwmMb;

    const tempo = await tempoCorpus(dir);
    const references = await outsideReferences(dir);
    const key = await keyCorpus(dir);
    const realKeys = await keyReferences();

    const speedPass = realTime >= TARGET_SPEED;
    const memoryPass = growth <= TARGET_GROWTH_MB;
    const processingPass = processingGrowth <= TARGET_GROWTH_MB;
    console.log(
      `speed: ${realTime.toFixed(0)}× real time on one core by CPU time (${
        wallRealTime.toFixed(0)
      }× by the wall clock; ` +
        `target ≥ ${TARGET_SPEED}×): ${speedPass ? "pass" : "FAIL"}`,
    );
    console.log(
      `memory: +${growth.toFixed(1)} MB peak RSS on 50 MB (target ≤ ${TARGET_GROWTH_MB} MB): ${
        memoryPass ? "pass" : "FAIL"
      }`,
    );
    console.log(
      `processing pass: +${processingGrowth.toFixed(1)} MB peak RSS on 50 MB, ${processing.seconds.toFixed(1)} s ` +
        `(target ≤ ${TARGET_GROWTH_MB} MB): ${processingPass ? "pass" : "FAIL"}`,
    );
    return {
      speed_file_s: +audioSeconds.toFixed(1),
      speed_decoded_s: speed.result.duration_s,
      speed_one_core: speed.pinned,
      speed_analysis_wall_s: +speed.seconds.toFixed(2),
      speed_analysis_cpu_s: +speed.cpuSeconds.toFixed(2),
      speed_x_real_time: +realTime.toFixed(0),
      speed_x_real_time_wall: +wallRealTime.toFixed(0),
      target_speed_x: TARGET_SPEED,
      speed_pass: speedPass,
      memory_file_mb: +(Deno.statSync(memoryFile).size / MB).toFixed(1),
      memory_decoded_s: mem.result.duration_s,
      memory_analysis_wall_s: +mem.seconds.toFixed(2),
      memory_peak_before_mb: +mem.before.hwmMb.toFixed(1),
      memory_peak_after_mb: +mem.after.hwmMb.toFixed(1),
      memory_peak_growth_mb: +growth.toFixed(1),
      target_growth_mb: TARGET_GROWTH_MB,
      memory_pass: memoryPass,
      processing_wall_s: +processing.seconds.toFixed(2),
      processing_cpu_s: +processing.cpuSeconds.toFixed(2),
      processing_x_real_time: +(processing.result.duration_s / processing.cpuSeconds).toFixed(0),
      processing_peak_growth_mb: +processingGrowth.toFixed(1),
      processing_pass: processingPass,
      ...tempo,
      ...references,
      ...key,
      ...realKeys,
      pass: speedPass && memoryPass && processingPass && (tempo?.tempo_pass ?? true) && (tempo?.drop_pass ?? true) &&
        (key?.key_pass ?? true) && (realKeys.key_corpus_pass ?? true) && (references.references_pass ?? true) === true,
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--child");
  const atProcessing = Deno.args.indexOf("--child-processing");
  if (at >= 0) await child(Deno.args[at + 1]);
  else if (atProcessing >= 0) await childProcessing(Deno.args[atProcessing + 1]);
  else console.log(JSON.stringify(await run(), null, 2));
}
