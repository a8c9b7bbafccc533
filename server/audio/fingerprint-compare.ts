/**
 * Two fingerprints laid on each other (issue 25, 38; docs/decisions/0247, 0422): the bit error rate
 * of their codes, block by block along a copy's drift, and the mean level difference of their mix.
 */
import { MIX_BANDS, MIX_STEP_DB, type PrintCodes } from "./fingerprint-codes.ts";

/** Bits set in a 32-bit number. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The bit error rate of `b` laid `offset` codes after `a` (b[j] against a[j + offset]), over the
 * codes both have with sound; and how many such codes there were.
 */
export function bitErrorRate(a: Uint32Array, b: Uint32Array, offset: number): { ber: number; compared: number } {
  let errors = 0, compared = 0;
  const from = Math.max(0, -offset), to = Math.min(b.length, a.length - offset);
  for (let j = from; j < to; j++) {
    const x = a[j + offset], y = b[j];
    if (x === 0 || y === 0) continue;
    errors += popcount(x ^ y);
    compared++;
  }
  return { ber: compared === 0 ? 1 : errors / (32 * compared), compared };
}
/**
 * The same recording: laid at their best alignment, at most this share of the codes' bits differ
 * (docs/decisions/0247: re-encodes measured at 0–6 %, another groove in the same key and tempo at
 * 25 % or more at every offset, unrelated fixtures 22 % or more)…
 */
export const MATCH_MAX_BER = 0.15;
/**
 * …and the mix's bands differ by at most this many dB on average (0422: re-encodes and speed copies
 * measured under 1 dB, an instrumental, a mix without drums or bass, another take 2 dB or more).
 */
export const SAME_MAX_MIX_DB = 0.7;
/**
 * Another version of it (an instrumental, a vocal, an edit, another mix, another take): the codes
 * agree this well but the mix does not, or the codes agree only this well (0422).
 */
export const VERSION_MAX_BER = 0.24;
/** Either over at least this many codes with sound on both sides (7.4 s)… */
export const MATCH_MIN_CODES = 60;
/** …and at least this share of the shorter one's codes with sound (not just a shared intro). */
export const MATCH_MIN_SHARE = 0.5;
/** Codes compared as one block when following a copy's drift (5 s). */
const BLOCK = 40;

/** What a lookup found (issue 38): the same recording, or another version of it. */
export type AudioMatchKind = "same" | "version";

/** Two fingerprints laid on each other. */
export interface Comparison {
  /** The codes' bit error rate over the positions compared. */
  ber: number;
  /** The mean level difference of the mix's bands over the same positions, dB. */
  mixDb: number;
  /** Positions compared (sound on both sides). */
  compared: number;
}

/** The kind of a comparison: "same", "version", or null when the two are not related. */
export function audioMatchKind(c: Comparison | null): AudioMatchKind | null {
  if (c === null) return null;
  if (c.ber <= MATCH_MAX_BER && c.mixDb <= SAME_MAX_MIX_DB) return "same";
  return c.ber <= VERSION_MAX_BER ? "version" : null;
}

/** Codes with sound. */
function sounding(codes: Uint32Array): number {
  let n = 0;
  for (const c of codes) if (c !== 0) n++;
  return n;
}

/**
 * `query` laid on `stored` near offset `near` (stored position minus query position, as the index
 * voted). A copy read at a speed up to 0.5 % off drifts by up to 5 codes over 120 s, so the codes are
 * laid block by block (BLOCK positions): the block that agrees best within `near` ± 2 first, then
 * its neighbours outwards, each within ±1 of the last. Null when fewer positions than needed
 * (MATCH_MIN_CODES, MATCH_MIN_SHARE) were compared.
 */
export function compare(stored: PrintCodes, query: PrintCodes, near: number): Comparison | null {
  const needed = Math.max(MATCH_MIN_CODES, MATCH_MIN_SHARE * Math.min(sounding(stored.codes), sounding(query.codes)));
  const blocks = Math.ceil(query.codes.length / BLOCK);
  if (blocks === 0) return null;
  const lay = (block: number, offset: number) => {
    let errors = 0, compared = 0;
    const from = Math.max(block * BLOCK, -offset);
    const to = Math.min((block + 1) * BLOCK, query.codes.length, stored.codes.length - offset);
    for (let j = from; j < to; j++) {
      const x = stored.codes[j + offset], y = query.codes[j];
      if (x === 0 || y === 0) continue;
      errors += popcount(x ^ y);
      compared++;
    }
    return { errors, compared };
  };
  type Laid = ReturnType<typeof lay> & { offset: number };
  const best = (block: number, centre: number, radius: number): Laid => {
    let pick: Laid = { errors: 0, compared: 0, offset: centre };
    for (let o = centre - radius; o <= centre + radius; o++) {
      const l = lay(block, o);
      // Fewest errors per code; a block with nothing to compare loses to one with something.
      if (l.compared > 0 && (pick.compared === 0 || l.errors / l.compared < pick.errors / pick.compared)) {
        pick = { ...l, offset: o };
      }
    }
    return pick;
  };
  let anchor = -1, anchorLaid: Laid | null = null;
  for (let b = 0; b < blocks; b++) {
    const l = best(b, near, 2);
    if (
      l.compared >= BLOCK / 4 &&
      (anchorLaid === null || l.errors / l.compared < anchorLaid.errors / anchorLaid.compared)
    ) {
      anchor = b, anchorLaid = l;
    }
  }
  if (anchorLaid === null) return null;
  const offsets = new Int32Array(blocks);
  offsets[anchor] = anchorLaid.offset;
  let errors = anchorLaid.errors, compared = anchorLaid.compared;
  for (const step of [-1, 1]) {
    let offset = anchorLaid.offset;
    for (let b = anchor + step; b >= 0 && b < blocks; b += step) {
      const l = best(b, offset, 1);
      offsets[b] = l.offset;
      if (l.compared === 0) continue;
      offset = l.offset;
      errors += l.errors, compared += l.compared;
    }
  }
  if (compared < needed) return null;
  return { ber: errors / (32 * compared), mixDb: mixDistance(stored, query, offsets) * MIX_STEP_DB, compared };
}

/**
 * The mix's mean level difference per band, in steps, over the positions laid on each other (block
 * b at `offsets[b]`).
 */
function mixDistance(stored: PrintCodes, query: PrintCodes, offsets: Int32Array): number {
  const each = (visit: (x: number, y: number) => void) => {
    for (let b = 0; b < offsets.length; b++) {
      const offset = offsets[b];
      const from = Math.max(b * BLOCK, -offset);
      const to = Math.min((b + 1) * BLOCK, query.codes.length, stored.codes.length - offset);
      for (let j = from; j < to; j++) {
        if (stored.codes[j + offset] === 0 || query.codes[j] === 0) continue;
        visit(stored.mix[j + offset], query.mix[j]);
      }
    }
  };
  let n = 0, d = 0;
  each((x, y) => {
    for (let g = 0; g < 32; g += 4) d += Math.abs(((x >>> g) & 15) - ((y >>> g) & 15));
    n++;
  });
  if (n === 0) return 0;
  return d / (n * MIX_BANDS);
}
