/**
 * Loudness's K-weighting (loudness.ts) in WebAssembly SIMD: two channels side by side, one in each
 * lane of a pair of doubles, through the shelf and the high-pass and summed as squares, with the
 * same IEEE operations in the same order as the JavaScript loop it replaces, lane by lane (no fused
 * multiply-add in these instructions): every mean square, and so the loudness, is the same to the bit
 * (docs/decisions/0455). A lone channel has zeros in the other lane, whose sum stays +0.
 *
 * Memory: the two channels' filter states at 0 (x1 x2 y1 y2 of the shelf, then of the high-pass: a
 * lane each), the ten coefficients at COEF, then the range's two channels as float32. One instance
 * serves every meter in the process (a call is synchronous; each meter keeps its own state and
 * coefficients and hands them over with each range).
 */
import { F64, FunctionWriter, I32, kernelOnce, V128 } from "./wasm-encoder.ts";

const COEF = 128;
/** Where the samples start (after 10 coefficients, rounded up). */
const INPUT = 256;

/**
 * filter(n, right) → Σ z² of both lanes, lane 0's plus lane 1's (loudness.ts filterPair's
 * `sum + sumU`): the left channel's n float32 at INPUT, the right's at `right`.
 */
function filter(): FunctionWriter {
  const f = new FunctionWriter([I32, I32], F64);
  const [n, right] = [0, 1];
  const i = f.local(I32);
  const sx1 = f.local(V128), sx2 = f.local(V128), sy1 = f.local(V128), sy2 = f.local(V128);
  const hx1 = f.local(V128), hx2 = f.local(V128), hy1 = f.local(V128), hy2 = f.local(V128);
  const x = f.local(V128), y = f.local(V128), z = f.local(V128), sum = f.local(V128);
  const state = [sx1, sx2, sy1, sy2, hx1, hx2, hy1, hy2];
  for (const [k, local] of state.entries()) f.i32(0).load(16 * k).set(local);
  f.f64(0).splat().set(sum);
  // b0 b1 b2 a1 a2 of the shelf at COEF, of the high-pass at COEF + 40.
  const c = (stage: number, k: number) => f.i32(0).load64Splat(COEF + 40 * stage + 8 * k);
  f.i32(0).set(i);
  f.block().loop();
  f.get(i).get(n).i32GeU().brIf(1);
  f.get(right).get(i).i32(2).i32Shl().i32Add();
  f.get(i).i32(2).i32Shl().load32Zero(INPUT).load32Lane(1).promoteLow().set(x);
  // One stage: out = b0·in + b1·x1 + b2·x2 − a2·y2 − a1·y1, left to right; then its history moves on.
  const stage = (k: number, input: number, x1: number, x2: number, y1: number, y2: number, out: number) => {
    c(k, 0).get(input).mul();
    c(k, 1).get(x1).mul().add();
    c(k, 2).get(x2).mul().add();
    c(k, 4).get(y2).mul().sub();
    c(k, 3).get(y1).mul().sub().set(out);
    f.get(x1).set(x2).get(input).set(x1).get(y1).set(y2).get(out).set(y1);
  };
  stage(0, x, sx1, sx2, sy1, sy2, y);
  stage(1, y, hx1, hx2, hy1, hy2, z);
  f.get(sum).get(z).get(z).mul().add().set(sum);
  f.get(i).i32(1).i32Add().set(i).br(0);
  f.end().end();
  for (const [k, local] of state.entries()) f.i32(0).get(local).store(16 * k);
  const a = f.local(F64);
  f.get(sum).extractLane(0).set(a);
  f.get(a).get(sum).extractLane(1).f64Add();
  return f;
}

interface Kernel {
  memory: WebAssembly.Memory;
  filter(n: number, right: number): number;
}

const instance = kernelOnce<Kernel>(() => ({ filter: filter() }), 8192, (capacity) => INPUT + 8 * capacity);

/**
 * Σ z² over samples [from, to) of `left` and `right` (null: a lone channel) through both stages:
 * `state` holds both lanes' filter states, interleaved (16 doubles: updated here), `coefs` the shelf's
 * b0 b1 b2 a1 a2 then the high-pass's.
 */
export function filterRange(
  left: Float32Array,
  right: Float32Array | null,
  from: number,
  to: number,
  state: Float64Array,
  coefs: Float64Array,
): number {
  const n = to - from;
  const { k, f32, f64, capacity } = instance(n);
  const rightAt = INPUT + 4 * capacity;
  f64.set(state, 0);
  f64.set(coefs, COEF / 8);
  f32.set(left.subarray(from, to), INPUT / 4);
  if (right) f32.set(right.subarray(from, to), rightAt / 4);
  else f32.fill(0, rightAt / 4, rightAt / 4 + n);
  const sum = k.filter(n, rightAt);
  state.set(f64.subarray(0, 16));
  return sum;
}
