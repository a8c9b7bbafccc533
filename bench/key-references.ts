/**
 * The analysis bench's key figures on real compositions (issue 38): every MP3 of bench/key-corpus.ts
 * analysed as an upload is, each reading classed against the truth as MIREX does — exact, a fifth
 * away (same mode, tonic a fifth up or down), relative, parallel, or other — and the MIREX weighted
 * score (1, 0.5, 0.3, 0.2, 0). Then the share of readings at or above the confidence the report
 * calls sure (KEY_SURE_CONFIDENCE, key.ts) and their accuracy, against the accuracy below it.
 * Targets: exact ≥ 85 %, MIREX ≥ 0.86. The open reference's figure printed beside ours is the one
 * the issue measured on its own 48 pieces (essentia's KeyExtractor: 38/48, 0.863): the corpora differ.
 */
import { analyseMp3 } from "../server/audio/analyse-mp3.ts";
import { KEY_SURE_CONFIDENCE } from "../server/audio/key.ts";
import { ALL_KEYS, type KeyMode } from "../domain/musical-key.ts";
import { keyCorpus } from "./key-corpus.ts";

export type KeyClass = "exact" | "fifth" | "relative" | "parallel" | "other";
export const MIREX_WEIGHT: Record<KeyClass, number> = { exact: 1, fifth: 0.5, relative: 0.3, parallel: 0.2, other: 0 };
const TARGET_EXACT = 0.85;
const TARGET_MIREX = 0.86;

/** MIREX's class of an estimate against the truth (a missing estimate is "other"). */
export function keyClass(truth: { tonic: number; mode: KeyMode }, est: { tonic: number; mode: KeyMode } | null) {
  if (!est) return "other";
  const d = (((est.tonic - truth.tonic) % 12) + 12) % 12;
  if (est.mode === truth.mode) return d === 0 ? "exact" : d === 7 || d === 5 ? "fifth" : "other";
  if (d === 0) return "parallel";
  return (truth.mode === "major" && d === 9) || (truth.mode === "minor" && d === 3) ? "relative" : "other";
}

const BY_NAME = new Map(ALL_KEYS.map((k) => [k.name, k]));

export async function keyReferences() {
  const corpus = await keyCorpus();
  if (typeof corpus === "string") {
    console.log(`key on real compositions: skipped (${corpus})`);
    return {};
  }
  const tally: Record<KeyClass, number> = { exact: 0, fifth: 0, relative: 0, parallel: 0, other: 0 };
  const bySource: Record<string, [number, number]> = {};
  let sure = 0, sureExact = 0, unsureExact = 0;
  const lines: string[] = [];
  for (const piece of corpus.pieces) {
    for (const f of piece.files) {
      const a = await analyseMp3((await Deno.open(f.path)).readable);
      const est = a.key ? BY_NAME.get(a.key) ?? null : null;
      const c = keyClass(piece, est);
      tally[c]++;
      const s = (bySource[piece.source] ??= [0, 0]);
      s[1]++;
      if (c === "exact") s[0]++;
      const isSure = (a.key_confidence ?? 0) >= KEY_SURE_CONFIDENCE;
      if (isSure) sure++;
      if (c === "exact") isSure ? sureExact++ : unsureExact++;
      if (c !== "exact") {
        lines.push(
          `  ${c}: ${piece.name} ${f.bitrate}: ${a.key ?? "none"} (${a.key_confidence}) for ` +
            `${ALL_KEYS.find((k) => k.tonic === piece.tonic && k.mode === piece.mode)!.name}`,
        );
      }
    }
  }
  const n = Object.values(tally).reduce((x, y) => x + y, 0);
  const mirex = Object.entries(tally).reduce((s, [k, v]) => s + MIREX_WEIGHT[k as KeyClass] * v, 0) / n;
  const exact = tally.exact / n;
  const pass = exact >= TARGET_EXACT && mirex >= TARGET_MIREX;
  console.log(
    `key on real compositions: ${corpus.pieces.length} pieces × 320/128 kbps = ${n} files; exact ${tally.exact} ` +
      `(${(exact * 100).toFixed(1)} %; target ≥ ${TARGET_EXACT * 100} %), fifth ${tally.fifth}, relative ` +
      `${tally.relative}, parallel ${tally.parallel}, other ${tally.other}; MIREX ${mirex.toFixed(3)} (target ≥ ` +
      `${TARGET_MIREX}): ${pass ? "pass" : "FAIL"}`,
  );
  for (const [src, [ok, all]] of Object.entries(bySource)) console.log(`  ${src}s: exact ${ok}/${all}`);
  console.log(
    `  confidence ≥ ${KEY_SURE_CONFIDENCE} (shown as sure): ${sure}/${n} readings, exact ${sureExact}/${sure} (${
      sure ? ((sureExact / sure) * 100).toFixed(1) : "–"
    } %); below it (shown with «?»): exact ${unsureExact}/${n - sure}`,
  );
  console.log("  open reference (essentia KeyExtractor, issue 38's own 48 pieces): 38/48 exact, MIREX 0.863");
  for (const l of lines) console.log(l);
  if (corpus.excluded.length) console.log(`  ${corpus.excluded.length} ABC tunes left out (bench/key-corpus.md)`);
  return {
    key_corpus_files: n,
    key_corpus_exact: tally.exact,
    key_corpus_fifth: tally.fifth,
    key_corpus_relative: tally.relative,
    key_corpus_parallel: tally.parallel,
    key_corpus_other: tally.other,
    key_corpus_mirex: +mirex.toFixed(3),
    key_corpus_sure: sure,
    key_corpus_sure_exact: sureExact,
    key_corpus_pass: pass,
  };
}

if (import.meta.main) await keyReferences();
