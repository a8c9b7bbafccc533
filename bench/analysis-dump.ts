/**
 * Every figure the analysis produces, and the series behind them, over all MP3 fixtures, the speed
 * bench's 6-minute file and the lossless masters, written to one JSON file (long arrays as a SHA-256
 * of their bytes and their length). A speed change that must leave every figure the same to the bit
 * (decisions 0435, 0455) is checked by running this before and after, e.g. in two worktrees:
 *
 *   deno run -A bench/analysis-dump.ts /tmp/before.json   (on the old commit)
 *   deno run -A bench/analysis-dump.ts /tmp/after.json    (on the new one)
 *   cmp /tmp/before.json /tmp/after.json
 *
 * Dumped per MP3: the report (analyseMp3Frames), the frame counts, the fingerprint's codes and mix at
 * every speed; from the decoded chunks fed to each meter as the analysis feeds them: the PCM, the
 * loudness blocks, the true and sample peaks unrounded, clipping, the waveform (1,000 and 200 pairs),
 * the onset and low-band series, the half-rate mono mix, the key's chroma summary. Per master: the
 * lossless pass's facts, its PCM, loudness blocks and unrounded peaks.
 */
import { createHash } from "node:crypto";
import { analyseMp3Frames } from "../server/audio/analyse-mp3.ts";
import { analyseLossless } from "../server/audio/analyse-lossless.ts";
import { createBandEnvelopes } from "../server/audio/band-envelopes.ts";
import { createClipCounter } from "../server/audio/clipping.ts";
import { createFingerprinter } from "../server/audio/fingerprint.ts";
import { createKeyChroma } from "../server/audio/key.ts";
import { createLoudnessMeter, type LoudnessMeter } from "../server/audio/loudness.ts";
import { acquireDecoder, type PcmSink } from "../server/audio/mpeg-decoder.ts";
import { createFrameSplitter } from "../server/audio/mpeg-frames.ts";
import { createTruePeakMeter, type TruePeakMeter } from "../server/audio/true-peak.ts";
import { createPeakCollector } from "../server/audio/waveform.ts";
import { buildFile } from "./analysis.bench.ts";

const FIXTURES = new URL("../test/fixtures/", import.meta.url).pathname;

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 32);

/** Long arrays as a digest of their bytes; -0 spelt out (JSON would print it as 0). */
function plain(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return `${digest(bytes)} n=${(v as unknown as { length: number }).length}`;
  }
  if (Array.isArray(v)) {
    return v.length > 50 ? `${digest(new TextEncoder().encode(JSON.stringify(v)))} n=${v.length}` : v.map(plain);
  }
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return Object.is(v, -0) ? "-0" : v;
}

/** The decoded chunks, each fed to every meter as pcm-analyser.ts feeds them. */
async function meters(path: string) {
  const splitter = createFrameSplitter();
  const decoder = await acquireDecoder();
  const pcm = createHash("sha256"), mono = createHash("sha256");
  let m: ReturnType<typeof meterSet> | null = null;
  const meterSet = (rate: number, channels: number) => {
    const chroma = createKeyChroma(rate / 2), print = createFingerprinter(rate / 2);
    const bands = createBandEnvelopes(rate, channels, (x, n) => {
      mono.update(new Uint8Array(x.buffer, 0, n * 8));
      chroma.push(x, n);
      print.push(x, n);
    });
    return {
      loudness: createLoudnessMeter(rate, channels),
      truePeak: createTruePeakMeter(channels),
      clips: createClipCounter(channels),
      peaks: createPeakCollector(channels),
      bands,
      chroma,
      print,
    };
  };
  const sink: PcmSink = (channels, n, rate) => {
    m ??= meterSet(rate, splitter.stats.channels);
    for (const c of channels) pcm.update(new Uint8Array(c.buffer, c.byteOffset, n * 4));
    for (const meter of [m.loudness, m.truePeak, m.clips, m.peaks, m.bands]) meter.push(channels, n);
  };
  try {
    for await (const chunk of (await Deno.open(path)).readable) {
      for (let i = 0; i < chunk.length; i += 65536) decoder.decode(splitter.push(chunk.subarray(i, i + 65536)), sink);
    }
    decoder.decode(splitter.finish(), sink);
  } finally {
    decoder.release();
  }
  if (!m) return null;
  const s = m as ReturnType<typeof meterSet>;
  s.truePeak.finish();
  const print = s.print.finish();
  return {
    pcm: pcm.digest("hex"),
    loudnessBlocks: s.loudness.blocks(),
    loudness: s.loudness.integrated(),
    truePeak: s.truePeak.peak(),
    samplePeak: s.truePeak.samplePeak(),
    clipped: s.clips.count(),
    peaks: s.peaks.peaks(),
    peaks200: s.peaks.peaks(200),
    onsets: s.bands.onsets(),
    lowLevels: s.bands.lowLevels(),
    mono: mono.digest("hex"),
    chroma: s.chroma.summary(),
    key: s.chroma.finish(),
    codes: print.codes,
    mix: print.mix,
    speeds: print.speeds(),
  };
}

async function mp3(path: string) {
  const entry: Record<string, unknown> = {};
  try {
    const r = await analyseMp3Frames((await Deno.open(path)).readable);
    const { codes, mix } = r.fingerprint;
    Object.assign(entry, { analysis: r.analysis, frames: r.frames, codes, mix, speeds: r.fingerprint.speeds() });
  } catch (err) {
    entry.error = String(err);
  }
  entry.meters = await meters(path);
  return plain(entry);
}

async function master(path: string) {
  const pcm = createHash("sha256");
  let loudness: LoudnessMeter | null = null, truePeak: TruePeakMeter | null = null;
  try {
    const facts = await analyseLossless((await Deno.open(path)).readable, {
      onFormat(f) {
        loudness = createLoudnessMeter(f.sampleRate, Math.min(f.channels, 2));
        truePeak = createTruePeakMeter(Math.min(f.channels, 2));
        return true;
      },
      onBlock(planes, n) {
        for (const p of planes) pcm.update(new Uint8Array(p.buffer, p.byteOffset, n * 4));
        loudness!.push(planes, n);
        truePeak!.push(planes, n);
      },
    });
    const tp = truePeak as TruePeakMeter | null, lm = loudness as LoudnessMeter | null;
    tp?.finish();
    return plain({
      facts,
      pcm: pcm.digest("hex"),
      loudnessBlocks: lm?.blocks(),
      truePeak: tp?.peak(),
      samplePeak: tp?.samplePeak(),
    });
  } catch (err) {
    return { error: String(err) };
  }
}

const files = (dir: string, ext: RegExp) =>
  [...Deno.readDirSync(`${FIXTURES}${dir}`)].filter((e) => e.isFile && ext.test(e.name)).map((e) => `${dir}${e.name}`)
    .sort();

if (import.meta.main) {
  const out = Deno.args[0];
  if (!out) throw new Error("usage: deno run -A bench/analysis-dump.ts <out.json>");
  const dump: Record<string, unknown> = {};
  for (const f of ["audio/", "audio/fingerprint/", "audio/versions/", ""].flatMap((d) => files(d, /\.mp3$/))) {
    dump[f] = await mp3(`${FIXTURES}${f}`);
  }
  const dir = await Deno.makeTempDir({ prefix: "np-analysis-dump-" });
  try {
    buildFile(`${dir}/six-minutes.mp3`, (_, s) => s >= 6 * 60);
    dump["the speed bench's 6-minute file"] = await mp3(`${dir}/six-minutes.mp3`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  for (const f of files("audio/master/", /\.(wav|aiff?|aifc|flac)$/)) dump[f] = await master(`${FIXTURES}${f}`);
  const text = JSON.stringify(dump, null, 1);
  Deno.writeTextFileSync(out, text);
  console.log(`${Object.keys(dump).length} files, digest ${digest(new TextEncoder().encode(text))}`);
}
