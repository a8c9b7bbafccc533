/**
 * The key's settings measured one at a time on the real-music corpus (issue 38, decision 0412):
 * `deno run -A bench/key-ablation.ts 1/edmm/0 8/shaath/0.2 …` (harmonics/profile/chroma threshold,
 * optionally /the main view's lowest frequency in Hz, 65 by default, /the chord weight and /the minor
 * prior, key.ts's by default)
 * analyses every MP3 of bench/key-corpus.ts as an upload is, once per setting, and prints the exact
 * share and MIREX score on the tunes, the arrangements and the two halves of the pieces used for the
 * held-out check (arrangements by tonic index even/odd, tunes alternating).
 */
import { analyseMp3 } from "../server/audio/analyse-mp3.ts";
import { setChromaOptions } from "../server/audio/key-chroma.ts";
import { CHORD_WEIGHT, KEY_PROFILES, MINOR_PRIOR, setKeyOptions } from "../server/audio/key.ts";

const CHORD_WEIGHT_CHOSEN = CHORD_WEIGHT;
const MINOR_PRIOR_CHOSEN = MINOR_PRIOR;
import { ALL_KEYS } from "../domain/musical-key.ts";
import { keyClass, MIREX_WEIGHT } from "./key-references.ts";
import { type CorpusPiece, keyCorpus } from "./key-corpus.ts";

const BY_NAME = new Map(ALL_KEYS.map((k) => [k.name, k]));

/** The held-out half (0 or 1) of a piece. */
export function halfOf(piece: CorpusPiece, pieces: CorpusPiece[]): number {
  if (piece.source === "arrangement") return piece.tonic % 2;
  return pieces.filter((p) => p.source === "tune").indexOf(piece) % 2;
}

async function measure(pieces: CorpusPiece[]) {
  const groups: Record<string, { exact: number; mirex: number; n: number }> = {};
  for (const piece of pieces) {
    for (const f of piece.files) {
      const a = await analyseMp3((await Deno.open(f.path)).readable);
      const c = keyClass(piece, a.key ? BY_NAME.get(a.key) ?? null : null);
      for (const g of ["all", `${piece.source}s`, `half ${halfOf(piece, pieces)}`]) {
        const s = (groups[g] ??= { exact: 0, mirex: 0, n: 0 });
        s.exact += c === "exact" ? 1 : 0;
        s.mirex += MIREX_WEIGHT[c];
        s.n++;
      }
    }
  }
  return Object.entries(groups).map(([g, s]) => `${g} ${s.exact}/${s.n} (${(s.mirex / s.n).toFixed(3)})`).join(", ");
}

if (import.meta.main) {
  const corpus = await keyCorpus();
  if (typeof corpus === "string") {
    console.log(`skipped (${corpus})`);
    Deno.exit(0);
  }
  for (const setting of Deno.args.length ? Deno.args : ["8/shaath/0.2"]) {
    const [harmonics, profile, threshold, low, chords, minor] = setting.split("/");
    if (!KEY_PROFILES[profile]) throw new Error(`no profile ${profile}: ${Object.keys(KEY_PROFILES).join(", ")}`);
    setChromaOptions({ harmonics: +harmonics, trebleLowHz: low ? +low : 65 });
    setKeyOptions({
      profile,
      pcpThreshold: +threshold,
      chordWeight: chords ? +chords : CHORD_WEIGHT_CHOSEN,
      minorPrior: minor ? +minor : MINOR_PRIOR_CHOSEN,
    });
    console.log(`${setting}: ${await measure(corpus.pieces)}`);
  }
}
