/**
 * The analysis bench's outside references (issue 22, docs/decisions/0219), called once from
 * analysis.bench.ts:
 *
 * - **Loudness against ffmpeg**: every file of a corpus (the test fixtures ffmpeg decodes, the
 *   synthetic grooves encoded at 320/192/128 kbps CBR and V0 at 44.1/48 kHz mono/stereo, and the
 *   rendered LMMS pieces below) measured by our analysis and by ffmpeg's `ebur128=peak=true` (its
 *   per-frame metadata, three decimals): integrated LUFS and true peak per file, the largest |Δ|, and
 *   pass when every file's loudness is within 0.2 LU (the target). The true peak is counted
 *   within 0.5 dB and printed, not judged (two different 4× interpolators, and ffmpeg's is not run
 *   past the last sample: a file cut mid-waveform reads higher here; see 0219).
 * - **Real produced music**: the demo projects of Debian's `lmms-common`, rendered by `lmms` (a tool
 *   here: nothing of it is bundled), encoded to 320 kbps MP3 by ffmpeg and analysed. The truth is the
 *   `bpm` attribute of the project's `<head>` (a `.mmpz` is Qt's qCompress: a 4-byte big-endian
 *   length, then zlib). Each piece is printed as read at its stated tempo, at × 2 or × ½ of it, wrong
 *   (with the ratio), or with no tempo. Renders are cached under the temporary folder
 *   (`np-bench-lmms/`), new ones capped at RENDER_BUDGET_S a run.
 *
 * Without ffmpeg both sections are skipped; without lmms the second is, each with a printed line.
 */
import { analyseMp3 } from "../server/audio/analyse-mp3.ts";
import { foldToDnb } from "../domain/tempo.ts";
import { groove, type GroovePattern } from "../server/testing/grooves.ts";

const FIXTURES = new URL("../test/fixtures/audio/", import.meta.url);
const LMMS_PROJECTS = "/usr/share/lmms/projects";
const LOUDNESS_TOLERANCE_LU = 0.2;
const TRUE_PEAK_TOLERANCE_DB = 0.5;
/** Seconds of new LMMS rendering one run may spend; what is left is rendered by the next run. */
const RENDER_BUDGET_S = 30 * 60;
const RENDER_TIMEOUT_S = 300;

const decoder = new TextDecoder();

async function has(command: string, args: string[]): Promise<boolean> {
  try {
    // A missing program throws from `output()` itself, not through the promise.
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** ffmpeg's ebur128 (peak=true) of a file: integrated LUFS and the largest channel's true peak, dBTP. */
async function ffmpegLoudness(path: string): Promise<{ lufs: number | null; dbtp: number | null }> {
  const out = await new Deno.Command("ffmpeg", {
    args: [
      "-nostats",
      "-hide_banner",
      "-i",
      path,
      "-af",
      "ebur128=peak=true:metadata=1,ametadata=print:file=-",
      "-f",
      "null",
      "-",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) return { lufs: null, dbtp: null };
  const text = decoder.decode(out.stdout);
  // The last frame's running figures are the whole file's.
  const last = (re: RegExp) => {
    let v: number | null = null;
    for (const m of text.matchAll(re)) v = Number(m[1]);
    return v;
  };
  const lufs = last(/^lavfi\.r128\.I=(-?[\d.]+|-inf)$/gm);
  let peak = 0;
  for (let ch = 0; ch < 2; ch++) {
    const p = last(new RegExp(`^lavfi\\.r128\\.true_peaks_ch${ch}=([\\d.]+)$`, "gm"));
    if (p !== null) peak = Math.max(peak, p);
  }
  return {
    lufs: lufs === null || !Number.isFinite(lufs) || lufs < -70 ? null : lufs,
    dbtp: peak > 0 ? 20 * Math.log10(peak) : null,
  };
}

function interleave(channels: Float32Array[]): Uint8Array {
  const n = channels[0].length;
  const out = new Float32Array(n * channels.length);
  for (let i = 0; i < n; i++) for (let c = 0; c < channels.length; c++) out[i * channels.length + c] = channels[c][i];
  return new Uint8Array(out.buffer);
}

async function ffmpeg(args: string[], input?: Uint8Array) {
  const child = new Deno.Command("ffmpeg", {
    args: ["-v", "error", "-y", ...args],
    stdin: input ? "piped" : "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  if (input) {
    const w = child.stdin.getWriter();
    await w.write(input);
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`ffmpeg ${args.join(" ")}: ${decoder.decode(out.stderr)}`);
}

const GROOVES: [GroovePattern, number][] = [
  ...[160, 165, 170, 172, 174, 175, 178, 180].map((bpm) => ["two-step", bpm] as [GroovePattern, number]),
  ["two-step", 85],
  ["two-step", 86],
  ["two-step", 87],
  ["dubstep", 140],
  ["house", 128],
];
const ENCODINGS = [["-b:a", "320k"], ["-b:a", "192k"], ["-b:a", "128k"], ["-q:a", "0"]];
const FORMATS: [number, 1 | 2][] = [[44100, 2], [48000, 1], [44100, 1], [48000, 2]];

/** The grooves as MP3s in `dir` (30 s, bass from 10 s), every encoding, formats alternating. */
async function grooveFiles(dir: string): Promise<{ name: string; path: string }[]> {
  const files: { name: string; path: string }[] = [];
  for (const [g, [pattern, bpm]] of GROOVES.entries()) {
    for (const [e, encoding] of ENCODINGS.entries()) {
      const [rate, channels] = FORMATS[(g + e) % FORMATS.length];
      const pcm = interleave(
        groove({ pattern, bpm, seconds: 30, sampleRate: rate, channels, bassFrom: 10, seed: g + 1 }),
      );
      const path = `${dir}/loudness-groove-${g}-${e}.mp3`;
      await ffmpeg(
        [
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
          path,
        ],
        pcm,
      );
      files.push({ name: `${pattern} ${bpm} ${rate / 1000} kHz ${channels} ch ${encoding.join(" ")}`, path });
    }
  }
  return files;
}

interface Piece {
  name: string;
  project: string;
  statedBpm: number;
}

/** The project's tempo: `bpm` of `<head>` (attribute, or a `<bpm value=…>` child when automated). */
async function statedTempo(project: string): Promise<number | null> {
  let bytes = await Deno.readFile(project);
  if (project.endsWith(".mmpz")) {
    // qCompress: a 4-byte big-endian length, then a zlib stream.
    const stream = ReadableStream.from([bytes.subarray(4)]).pipeThrough(new DecompressionStream("deflate"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  const xml = decoder.decode(bytes);
  const head = /<head\b[^>]*>/.exec(xml)?.[0] ?? "";
  const attr = /\bbpm="([\d.]+)"/.exec(head)?.[1] ?? /<bpm\b[^>]*\bvalue="([\d.]+)"/.exec(xml)?.[1];
  return attr === undefined ? null : Number(attr);
}

async function projects(): Promise<Piece[]> {
  const found: Piece[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.mmpz?$/.test(e.name)) {
        const bpm = await statedTempo(path).catch(() => null);
        if (bpm !== null) found.push({ name: e.name.replace(/\.mmpz?$/, ""), project: path, statedBpm: bpm });
      }
    }
  };
  await walk(LMMS_PROJECTS);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Renders (or takes from the cache) one project as a 320 kbps MP3; null when lmms gave nothing. */
async function renderPiece(piece: Piece, cache: string, budget: { left: number }) {
  const stat = await Deno.stat(piece.project);
  const key = `${piece.name}-${stat.size}-${stat.mtime?.getTime() ?? 0}`;
  const mp3 = `${cache}/${key}.mp3`;
  if (await Deno.stat(mp3).then(() => true).catch(() => false)) return { mp3, rendered: false, seconds: 0 };
  if (budget.left <= 0) return null;
  const wav = `${cache}/${key}.wav`;
  const started = performance.now();
  const root = Deno.uid() === 0 ? ["--allowroot"] : [];
  // lmms 1.2.2 may crash on exit after writing the file (seen here): the file is judged, not the code.
  await new Deno.Command("timeout", {
    args: [`${RENDER_TIMEOUT_S}`, "lmms", ...root, "render", piece.project, "-f", "wav", "-o", wav],
    env: { QT_QPA_PLATFORM: "offscreen" },
    stdout: "null",
    stderr: "null",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  budget.left -= seconds;
  const size = await Deno.stat(wav).then((s) => s.size).catch(() => 0);
  if (size < 44100 * 4) return null; // under a second of 16-bit stereo: no render
  await ffmpeg(["-i", wav, "-c:a", "libmp3lame", "-b:a", "320k", mp3]);
  await Deno.remove(wav);
  return { mp3, rendered: true, seconds };
}

type Verdict = "stated" | "octave" | "wrong" | "none";

/** How a reading relates to the stated tempo: at it, at × 2 or × ½ of it, something else, or none. */
function judge(read: number | null, stated: number): { verdict: Verdict; note: string } {
  if (read === null) return { verdict: "none", note: "no tempo" };
  if (Math.abs(read - stated) <= 1) return { verdict: "stated", note: "at the stated tempo" };
  for (const f of [2, 0.5]) {
    if (Math.abs(read - stated * f) <= 1) {
      // The product reads in 80–160 and folds × 2 / × ½ only into 160–190 (tempo.ts).
      let octave = stated;
      while (octave >= 160) octave /= 2;
      while (octave < 80) octave *= 2;
      const rule = Math.abs(foldToDnb(octave) - read) <= 1;
      return {
        verdict: "octave",
        note: `${f === 2 ? "× 2" : "× ½"} of it${
          rule ? " (the product's folding rule: searched in 80–160, folded only into 160–190)" : ""
        }`,
      };
    }
  }
  return { verdict: "wrong", note: `wrong: ${(read / stated).toFixed(3)} × the stated tempo` };
}

async function realMusic() {
  if (!(await has("lmms", [...(Deno.uid() === 0 ? ["--allowroot"] : []), "--version"]))) {
    console.log(
      "real music: skipped (lmms is not installed; `apt-get install -y lmms lmms-common` adds it and its demo projects)",
    );
    return null;
  }
  const pieces = await projects().catch(() => [] as Piece[]);
  if (pieces.length === 0) {
    console.log(`real music: skipped (no LMMS projects under ${LMMS_PROJECTS}; install lmms-common)`);
    return null;
  }
  const cache = `${Deno.env.get("TMPDIR") ?? "/tmp"}/np-bench-lmms`;
  await Deno.mkdir(cache, { recursive: true });
  const budget = { left: RENDER_BUDGET_S };
  const rows: { piece: Piece; read: number | null; confidence: number | null; mp3: string; verdict: Verdict }[] = [];
  let rendered = 0, renderSeconds = 0;
  const notRendered: string[] = [];
  console.log(`real music: ${pieces.length} LMMS demo projects (${LMMS_PROJECTS}), rendered by lmms, 320 kbps MP3:`);
  for (const piece of pieces) {
    const r = await renderPiece(piece, cache, budget);
    if (!r) {
      notRendered.push(piece.name);
      console.log(`  ${piece.name}: not rendered (${budget.left <= 0 ? "render budget spent" : "lmms gave no audio"})`);
      continue;
    }
    if (r.rendered) {
      rendered++;
      renderSeconds += r.seconds;
    }
    const a = await analyseMp3((await Deno.open(r.mp3)).readable);
    const { verdict, note } = judge(a.bpm, piece.statedBpm);
    rows.push({ piece, read: a.bpm, confidence: a.bpm_confidence, mp3: r.mp3, verdict });
    console.log(
      `  ${piece.name}: stated ${piece.statedBpm}, read ${a.bpm ?? "none"} (confidence ${a.bpm_confidence ?? "none"}, ${
        a.duration_s.toFixed(0)
      } s): ${note}`,
    );
  }
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const withFolding = count("stated") + count("octave");
  console.log(
    `real music: ${withFolding}/${rows.length} within ±1 BPM of the stated tempo allowing × 2 / × ½ ` +
      `(${count("stated")} at it, ${count("octave")} at × 2 or × ½), ${count("wrong")} wrong, ${
        count("none")
      } no tempo; ` +
      `${rendered} rendered this run in ${renderSeconds.toFixed(0)} s, ${
        rows.length - rendered
      } from the cache (${cache})` +
      (notRendered.length ? `, ${notRendered.length} not rendered` : ""),
  );
  return {
    files: rows.map((r) => ({ name: r.piece.name, path: r.mp3 })),
    figures: {
      real_music_pieces: rows.length,
      real_music_within_1_bpm_with_octaves: withFolding,
      real_music_at_stated_tempo: count("stated"),
      real_music_octave: count("octave"),
      real_music_wrong: count("wrong"),
      real_music_no_tempo: count("none"),
      real_music_not_rendered: notRendered.length,
    },
  };
}

async function loudness(files: { name: string; path: string }[]) {
  let maxLu = 0, maxTp = 0, compared = 0, withinLu = 0, withinTp = 0;
  let worstTp = "";
  const refused: string[] = [];
  console.log(`loudness against ffmpeg ebur128=peak=true (ours / ffmpeg, Δ), ${files.length} files:`);
  for (const f of files) {
    const ref = await ffmpegLoudness(f.path);
    const ours = await analyseMp3((await Deno.open(f.path)).readable).catch(() => null);
    if (!ours || ref.lufs === null || ours.loudness_lufs === null) {
      refused.push(
        `${f.name} (${!ours ? "ours refused it" : ref.lufs === null ? "ffmpeg gave no figure" : "no loudness"})`,
      );
      continue;
    }
    compared++;
    const dLu = ours.loudness_lufs - ref.lufs;
    const dTp = ours.true_peak_dbtp! - ref.dbtp!;
    maxLu = Math.max(maxLu, Math.abs(dLu));
    if (Math.abs(dTp) > maxTp) worstTp = f.name;
    maxTp = Math.max(maxTp, Math.abs(dTp));
    if (Math.abs(dLu) <= LOUDNESS_TOLERANCE_LU + 1e-9) withinLu++;
    if (Math.abs(dTp) <= TRUE_PEAK_TOLERANCE_DB + 1e-9) withinTp++;
    const sign = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(2);
    console.log(
      `  ${f.name}: ${ours.loudness_lufs.toFixed(1)} / ${ref.lufs.toFixed(2)} LUFS (${sign(dLu)}), ` +
        `${ours.true_peak_dbtp!.toFixed(1)} / ${ref.dbtp!.toFixed(2)} dBTP (${sign(dTp)})`,
    );
  }
  for (const r of refused) console.log(`  not compared: ${r}`);
  // The target is the loudness; the true peak is reported beside it (0219).
  const pass = compared > 0 && withinLu === compared;
  console.log(
    `loudness: ${withinLu}/${compared} within ${LOUDNESS_TOLERANCE_LU} LU of ffmpeg (max |Δ| ${
      maxLu.toFixed(2)
    } LU; target: every file within ${LOUDNESS_TOLERANCE_LU} LU): ${pass ? "pass" : "FAIL"}`,
  );
  console.log(
    `true peak: ${withinTp}/${compared} within ${TRUE_PEAK_TOLERANCE_DB} dB of ffmpeg (max |Δ| ${
      maxTp.toFixed(2)
    } dB, ${worstTp}); reported, not a target`,
  );
  return {
    loudness_files: compared,
    loudness_within_0_2_lu: withinLu,
    loudness_max_abs_delta_lu: +maxLu.toFixed(3),
    true_peak_within_0_5_db: withinTp,
    true_peak_max_abs_delta_db: +maxTp.toFixed(3),
    true_peak_worst_file: worstTp,
    loudness_not_compared: refused.length,
    loudness_pass: pass,
  };
}

/** Both sections; their figures for the bench's JSON, with `references_pass`. */
export async function outsideReferences(dir: string): Promise<Record<string, unknown>> {
  if (!(await has("ffmpeg", ["-version"]))) {
    console.log("outside references: skipped (no ffmpeg; `apt-get install -y ffmpeg`)");
    return {};
  }
  const real = await realMusic();
  const fixtures: { name: string; path: string }[] = [];
  for await (const e of Deno.readDir(FIXTURES)) {
    if (e.name.endsWith(".mp3")) {
      fixtures.push({ name: e.name, path: decodeURIComponent(new URL(e.name, FIXTURES).pathname) });
    }
  }
  fixtures.sort((a, b) => a.name.localeCompare(b.name));
  const files = [...fixtures, ...(await grooveFiles(dir)), ...(real?.files ?? [])];
  const loud = await loudness(files);
  return { ...real?.figures, ...loud, references_pass: loud.loudness_pass };
}
