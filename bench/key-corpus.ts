/**
 * The key's reference corpus of real compositions (issue 38), made at bench time from Debian
 * packages; nothing of it is committed. Truths and how each was obtained: bench/key-corpus.md.
 *
 * - **Tunes**: the ABC files shipped as examples by `abcmidi` (/usr/share/doc/abcmidi/examples) and
 *   `abcm2ps` (/usr/share/doc/abcm2ps/examples), one piece per `X:` number. The truth is the
 *   transcriber's `K:` field (major or minor, or their mode names ionian/aeolian), kept only when it
 *   is the tune's one key (no key change in the body) and the rendered piece ends on it: the lowest
 *   of the last-starting notes (melody, or abc2midi's chord accompaniment) is its tonic. Rendered by
 *   abc2midi (with its guitar-chord accompaniment where the tune has chord symbols).
 * - **Arrangements**: bench/key-arrangements.ts, melody + chords + bass (+ drums), one per key and
 *   seed; the key is known by construction.
 *
 * Each piece is rendered by fluidsynth with the `fluid-soundfont-gm` soundfont at 44.1 kHz and
 * encoded by ffmpeg (libmp3lame) at 320 and 128 kbps CBR. Renders are cached in the temporary folder
 * (np-bench-keys/). `keyCorpus()` returns null (and the bench says so) when a tool is missing:
 * `apt-get install abcmidi abcm2ps fluidsynth fluid-soundfont-gm ffmpeg`.
 */
import { ALL_KEYS, type KeyMode, keyName } from "../domain/musical-key.ts";
import { arrangement } from "./key-arrangements.ts";

const ABC_DIRS = ["/usr/share/doc/abcmidi/examples", "/usr/share/doc/abcm2ps/examples"];
const SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2";
const BITRATES = ["320k", "128k"];
/** Pieces shorter than this are left out (a fragment of a few bars has little key to read). */
const MIN_SECONDS = 10;
/** Arrangements: one per key and seed. */
export const ARRANGEMENT_SEEDS = [1, 2, 3, 4];

export interface CorpusPiece {
  /** e.g. "abcmidi/coleraine.abc X:8" or "arr-01-5-minor". */
  name: string;
  source: "tune" | "arrangement";
  tonic: number;
  mode: KeyMode;
  /** How the truth was obtained. */
  truth: string;
  /** The MP3s, one per bitrate. */
  files: { bitrate: string; path: string }[];
}

async function run(cmd: string, args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

const NOTE: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
/**
 * Titles of the example files' notation and MIDI-feature demonstrations (scales, ornaments, clefs,
 * temperaments): not compositions, left out.
 */
const NOT_A_COMPOSITION = /scale|grace ?notes|decoration|features|vocals|temperament|clef|tuplet|beams|drum/i;
const KEY_FIELD = /^K:\s*([A-G])([#b]?)\s*(m|min|minor|aeo|aeolian|maj|major|ion|ionian)?(?=\s|$|%)/i;

/** The tunes of one ABC file: X number, title, and its one key (null when none or several). */
function abcTunes(text: string): { x: number; title: string; key: { tonic: number; mode: KeyMode } | null }[] {
  const tunes = text.split(/^(?=X:)/m).filter((t) => t.startsWith("X:"));
  return tunes.map((t) => {
    const x = Number(/^X:\s*(\d+)/.exec(t)?.[1] ?? NaN);
    const title = /^T:\s*(.*)$/m.exec(t)?.[1]?.trim() ?? "";
    const keys = t.split("\n").filter((l) => /^K:/.test(l) || /\[K:/.test(l));
    const m = keys.length === 1 ? KEY_FIELD.exec(keys[0]) : null;
    if (!m || /\bexp\b/.test(keys[0])) return { x, title, key: null };
    const tonic = (NOTE[m[1].toUpperCase()] + (m[2] === "#" ? 1 : m[2] === "b" ? 11 : 0)) % 12;
    const mode: KeyMode = m[3] && /^(m|min|minor|aeo|aeolian)$/i.test(m[3]) ? "minor" : "major";
    return { x, title, key: { tonic, mode } };
  });
}

/** Pitched notes of a Standard MIDI File: start tick and pitch (channel 10 left out). */
export function midiNotes(data: Uint8Array): { tick: number; pitch: number }[] {
  const notes: { tick: number; pitch: number }[] = [];
  let pos = 14;
  while (pos + 8 <= data.length) {
    const len = (data[pos + 4] << 24) | (data[pos + 5] << 16) | (data[pos + 6] << 8) | data[pos + 7];
    const isTrack = data[pos] === 0x4d && data[pos + 1] === 0x54 && data[pos + 2] === 0x72 && data[pos + 3] === 0x6b;
    const end = pos + 8 + len;
    let p = pos + 8, tick = 0, status = 0;
    while (isTrack && p < end) {
      let delta = 0;
      for (;;) {
        const b = data[p++];
        delta = (delta << 7) | (b & 0x7f);
        if (!(b & 0x80)) break;
      }
      tick += delta;
      let b = data[p];
      if (b & 0x80) p++;
      else b = status;
      if (b === 0xff) {
        p++;
        let l = 0;
        for (;;) {
          const c = data[p++];
          l = (l << 7) | (c & 0x7f);
          if (!(c & 0x80)) break;
        }
        p += l;
        continue;
      }
      if (b === 0xf0 || b === 0xf7) {
        let l = 0;
        for (;;) {
          const c = data[p++];
          l = (l << 7) | (c & 0x7f);
          if (!(c & 0x80)) break;
        }
        p += l;
        continue;
      }
      status = b;
      const type = b & 0xf0, ch = b & 0x0f;
      const two = type !== 0xc0 && type !== 0xd0;
      const d1 = data[p], d2 = two ? data[p + 1] : 0;
      p += two ? 2 : 1;
      if (type === 0x90 && d2 > 0 && ch !== 9) notes.push({ tick, pitch: d1 });
    }
    pos = end;
  }
  return notes;
}

/** FNV-1a of the bytes, 8 hex digits. */
function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** Whether the piece ends on the tonic: the lowest of the notes starting last is the tonic. */
function endsOnTonic(midi: Uint8Array, tonic: number): boolean {
  const notes = midiNotes(midi);
  if (notes.length === 0) return false;
  const last = Math.max(...notes.map((n) => n.tick));
  const lowest = Math.min(...notes.filter((n) => n.tick === last).map((n) => n.pitch));
  return lowest % 12 === tonic;
}

async function renderMp3s(mid: string, base: string): Promise<{ bitrate: string; path: string }[] | null> {
  const wav = `${base}.wav`;
  const files = BITRATES.map((b) => ({ bitrate: b, path: `${base}-${b}.mp3` }));
  if ((await Promise.all(files.map((f) => exists(f.path)))).every(Boolean)) return files;
  if (!(await run("fluidsynth", ["-ni", "-q", "-g", "0.6", "-r", "44100", "-F", wav, SOUNDFONT, mid]))) return null;
  const probe = await new Deno.Command("ffprobe", {
    args: ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav],
    stdout: "piped",
  }).output();
  const seconds = Number(new TextDecoder().decode(probe.stdout).trim());
  if (!(seconds >= MIN_SECONDS)) {
    await Deno.remove(wav).catch(() => {});
    return null;
  }
  for (const f of files) {
    const ok = await run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "libmp3lame", "-b:a", f.bitrate, f.path]);
    if (!ok) return null;
  }
  await Deno.remove(wav).catch(() => {});
  return files;
}

export interface Corpus {
  pieces: CorpusPiece[];
  /** Tunes left out, with why. */
  excluded: string[];
}

/** Builds (or finds in the cache) the corpus; null with the missing tool's name when one is missing. */
export async function keyCorpus(): Promise<Corpus | string> {
  for (const [tool, args] of [["abc2midi", ["-ver"]], ["fluidsynth", ["--version"]], ["ffmpeg", ["-version"]]]) {
    if (!(await run(tool as string, args as string[]))) return `${tool} is missing`;
  }
  if (!(await exists(SOUNDFONT))) return `${SOUNDFONT} (fluid-soundfont-gm) is missing`;
  const dir = `${await Deno.realPath(Deno.env.get("TMPDIR") ?? "/tmp")}/np-bench-keys`;
  await Deno.mkdir(dir, { recursive: true });
  const pieces: CorpusPiece[] = [];
  const excluded: string[] = [];
  for (const abcDir of ABC_DIRS) {
    if (!(await exists(abcDir))) continue;
    const names = [...Deno.readDirSync(abcDir)].map((e) => e.name).filter((n) => n.endsWith(".abc")).sort();
    for (const file of names) {
      const text = await Deno.readTextFile(`${abcDir}/${file}`);
      const pkg = abcDir.split("/")[4];
      for (const t of abcTunes(text)) {
        const name = `${pkg}/${file} X:${t.x}`;
        if (NOT_A_COMPOSITION.test(t.title)) {
          excluded.push(`${name} (${t.title}): a notation demonstration, not a composition`);
          continue;
        }
        if (!t.key) {
          excluded.push(`${name} (${t.title}): no single major/minor K: field`);
          continue;
        }
        const base = `${dir}/${pkg}-${file.replace(/\.abc$/, "")}-${t.x}`;
        const mid = `${base}.mid`;
        if (!(await exists(mid)) && !(await run("abc2midi", [`${abcDir}/${file}`, `${t.x}`, "-o", mid]))) {
          excluded.push(`${name} (${t.title}): abc2midi failed`);
          continue;
        }
        const midi = await Deno.readFile(mid).catch(() => new Uint8Array());
        if (!endsOnTonic(midi, t.key.tonic)) {
          excluded.push(`${name} (${t.title}): K:${keyName(t.key.tonic, t.key.mode)} but does not end on its tonic`);
          continue;
        }
        const files = await renderMp3s(mid, base);
        if (!files) {
          excluded.push(`${name} (${t.title}): shorter than ${MIN_SECONDS} s or not rendered`);
          continue;
        }
        pieces.push({
          name: `${name} (${t.title})`,
          source: "tune",
          ...t.key,
          truth: "K: field, the one key of the tune, and it ends on its tonic",
          files,
        });
      }
    }
  }
  for (const seed of ARRANGEMENT_SEEDS) {
    for (const k of ALL_KEYS) {
      const a = arrangement(k.tonic, k.mode, seed);
      // The render's name carries the MIDI's hash: a changed generator renders afresh.
      const base = `${dir}/${a.name}-${fnv1a(a.midi)}`;
      await Deno.writeFile(`${base}.mid`, a.midi);
      const files = await renderMp3s(`${base}.mid`, base);
      if (!files) {
        excluded.push(`${a.name}: not rendered`);
        continue;
      }
      pieces.push({ name: a.name, source: "arrangement", tonic: k.tonic, mode: k.mode, truth: a.recipe, files });
    }
  }
  return { pieces, excluded };
}

/** `deno run -A bench/key-corpus.ts`: renders the corpus and prints key-corpus.md's truth table. */
if (import.meta.main) {
  const corpus = await keyCorpus();
  if (typeof corpus === "string") {
    console.error(`skipped (${corpus})`);
    Deno.exit(1);
  }
  console.log("| Piece | Truth | How |\n| --- | --- | --- |");
  for (const p of corpus.pieces) console.log(`| ${p.name} | ${keyName(p.tonic, p.mode)} | ${p.truth} |`);
  console.log("\nLeft out of the example files, and why:\n");
  for (const e of corpus.excluded) console.log(`- ${e}`);
}
