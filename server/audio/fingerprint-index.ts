/**
 * The fingerprint's segment index (docs/decisions/0248, 0420): the hashes a fingerprint is stored
 * and looked up under, and its stored bytes.
 */
import type { PrintCodes } from "./fingerprint-codes.ts";

/**
 * One code in this many is a segment of the index, on the stored side and the query's alike: which
 * ones is decided by the code's hash itself (`isSegment`), so a code that survived a re-encode is
 * chosen on both sides, and a lookup probes about 60 hashes for 120 s instead of 969 (per speed).
 */
export const SEGMENT_EVERY = 16;

/** The second code a segment hash reads, this many positions (1 s) after the first. */
const SEGMENT_LATER = 8;

/**
 * The segment hash at position `p`: 24 bits, the 20 steady bits of its code (the chroma's shape,
 * 0–11, and its change over a second, 24–31) and the change over a second (24–27) of the code 1 s
 * later. The frame-to-frame bits (12–23) flip most when a copy is read at another speed (measured on
 * the fixtures, docs/decisions/0420); 24 bits keep a bucket to about 0.4 rows at 100,000 tracks.
 * −1 where either code is silence or missing.
 */
export function segmentHashAt(codes: Uint32Array, p: number): number {
  const code = codes[p], later = p + SEGMENT_LATER < codes.length ? codes[p + SEGMENT_LATER] : 0;
  if (!code || !later) return -1;
  return (((later >>> 24) & 0xf) << 20) | ((code >>> 24) << 12) | (code & 0xfff);
}

/**
 * Whether a segment hash is one the index keeps: mixed (Fibonacci hashing) so that all 24 bits
 * decide, not a few pitch classes that a track in one key may hold steady.
 */
export const isSegmentHash = (hash: number): boolean =>
  hash >= 0 && Math.imul(hash, 0x9e3779b1) >>> 0 < 2 ** 32 / SEGMENT_EVERY;

/** The positions of a fingerprint that are segments (stored in the index, and looked up). */
export function indexedPositions(codes: Uint32Array): number[] {
  const out: number[] = [];
  for (let p = 0; p < codes.length; p++) if (isSegmentHash(segmentHashAt(codes, p))) out.push(p);
  return out;
}

/** Little-endian bytes of the codes, then of the mix, as stored (version 2). */
export function printToBytes(print: PrintCodes): Uint8Array {
  const n = print.codes.length;
  const out = new Uint8Array(n * 8);
  const v = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    v.setUint32(4 * i, print.codes[i], true);
    v.setUint32(4 * (n + i), print.mix[i], true);
  }
  return out;
}

export function printFromBytes(bytes: Uint8Array): PrintCodes {
  const n = bytes.byteLength >> 3;
  const codes = new Uint32Array(n), mix = new Uint32Array(n);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    codes[i] = v.getUint32(4 * i, true);
    mix[i] = v.getUint32(4 * (n + i), true);
  }
  return { codes, mix };
}
