/**
 * True peak's arithmetic (true-peak.ts) in WebAssembly SIMD: two channels side by side, one in each
 * lane of a pair of doubles, so every operation of the JavaScript loop it replaces is done once for
 * both. Each lane does the same IEEE operations in the same order as that loop did (no fused
 * multiply-add: WebAssembly has none in these instructions), so every output, and the peak, is the
 * same to the bit (docs/decisions/0455). A mono file has its channel in both lanes.
 *
 * Memory: the filter's taps at 0; from WORK, the last 15 sample pairs and then the chunk's, as
 * doubles; then each segment of 16 pairs' lowest and highest; then the chunk's two channels as
 * float32, as the decoder gave them. One instance serves every meter in the process (each push is
 * synchronous; a meter keeps its own 15 pairs of history and hands them over with each chunk).
 */
import { F64, FunctionWriter, I32, kernelOnce, V128 } from "./wasm-encoder.ts";

const HIST = 15;
const SEG = 16;
/** Byte offset of the work pairs (the taps, the bound's gain and margin lie below). */
const WORK = 256;
/** Where the taps are: e1[8], o1[8], e2[8], then the gain and the margin. */
const GAIN_AT = 24 * 8;
const MARGIN_AT = 25 * 8;

/** The lanes' larger value, as one double (JavaScript's `b > a ? b : a`). */
function laneMax(f: FunctionWriter, v: number, a: number, b: number) {
  f.get(v).extractLane(1).set(b);
  f.get(v).extractLane(0).set(a);
  f.get(b).get(a).get(a).get(b).f64Lt().select();
}

/**
 * prepare(n, left, right, segs) → the largest |sample| of the history and the chunk: the chunk's
 * float32 samples become pairs of doubles after the history, and each segment's lowest and highest
 * pair is noted (as the JavaScript before 0455 did, both lanes at once).
 */
function prepare(): FunctionWriter {
  const f = new FunctionWriter([I32, I32, I32, I32], F64);
  const [n, left, right, segs] = [0, 1, 2, 3];
  const i = f.local(I32), total = f.local(I32), end = f.local(I32), j = f.local(I32), p = f.local(I32);
  const lo = f.local(V128), hi = f.local(V128), v = f.local(V128), peak = f.local(V128);
  const a = f.local(F64), b = f.local(F64);
  f.i32(0).set(i);
  f.block().loop();
  f.get(i).get(n).i32GeU().brIf(1);
  f.get(i).i32(4).i32Shl();
  f.get(right).get(i).i32(2).i32Shl().i32Add();
  f.get(left).get(i).i32(2).i32Shl().i32Add().load32Zero();
  f.load32Lane(1).promoteLow().store(WORK + HIST * 16);
  f.get(i).i32(1).i32Add().set(i).br(0);
  f.end().end();

  f.f64(0).splat().set(peak);
  f.get(n).i32(HIST).i32Add().set(total);
  f.i32(0).set(i);
  f.get(segs).set(p);
  f.block().loop();
  f.get(i).get(total).i32GeU().brIf(1);
  f.get(i).i32(SEG).i32Add().get(total).get(i).i32(SEG).i32Add().get(total).i32LtU().select().set(end);
  f.get(i).i32(4).i32Shl().load(WORK).tee(lo).set(hi);
  f.get(i).i32(1).i32Add().set(j);
  f.block().loop();
  f.get(j).get(end).i32GeU().brIf(1);
  f.get(j).i32(4).i32Shl().load(WORK).set(v);
  f.get(lo).get(v).pmin().set(lo);
  f.get(hi).get(v).pmax().set(hi);
  f.get(j).i32(1).i32Add().set(j).br(0);
  f.end().end();
  f.get(p).get(lo).store(0);
  f.get(p).get(hi).store(16);
  f.get(peak).get(hi).pmax().set(peak);
  f.get(peak).get(lo).neg().pmax().set(peak);
  f.get(p).i32(32).i32Add().set(p);
  f.get(i).i32(SEG).i32Add().set(i).br(0);
  f.end().end();
  laneMax(f, peak, a, b);
  return f;
}

/**
 * scan(n, segs, tp) → the peak so far, `tp`, raised by every output of the chunk that is larger:
 * blocks of 16 outputs whose bound stays under it in both lanes are skipped; the others are computed
 * as the JavaScript loop before 0455 did, lane by lane. Then the last 15 pairs move to the front (the history).
 */
function scan(): FunctionWriter {
  const f = new FunctionWriter([I32, I32, F64], F64);
  const [n, segs, tpIn] = [0, 1, 2];
  const blocks = f.local(I32), segments = f.local(I32), s = f.local(I32), o = f.local(I32), end = f.local(I32);
  const a = f.local(F64), b = f.local(F64);
  const gain = f.local(V128), margin = f.local(V128), half = f.local(V128), tp = f.local(V128);
  const lo = f.local(V128), hi = f.local(V128);
  const r = Array.from({ length: 16 }, () => f.local(V128));
  const sum = Array.from({ length: 8 }, () => f.local(V128));
  const dif = Array.from({ length: 8 }, () => f.local(V128));
  const even1 = f.local(V128), odd1 = f.local(V128), even2 = f.local(V128);

  f.i32(0).load64Splat(GAIN_AT).set(gain);
  f.i32(0).load64Splat(MARGIN_AT).set(margin);
  f.f64(0.5).splat().set(half);
  f.get(tpIn).splat().set(tp);
  f.get(n).i32(SEG - 1).i32Add().i32(4).i32ShrU().set(blocks);
  f.get(n).i32(HIST + SEG - 1).i32Add().i32(4).i32ShrU().set(segments);
  f.i32(0).set(s);
  f.block().loop();
  f.get(s).get(blocks).i32GeU().brIf(1);
  // The window of block s lies in segments s and s + 1 (the bound of true-peak.ts's module comment).
  f.get(segs).get(s).i32(5).i32Shl().i32Add().load(0).set(lo);
  f.get(segs).get(s).i32(5).i32Shl().i32Add().load(16).set(hi);
  f.get(s).i32(1).i32Add().get(segments).i32LtU().if();
  f.get(lo).get(segs).get(s).i32(5).i32Shl().i32Add().load(32).pmin().set(lo);
  f.get(hi).get(segs).get(s).i32(5).i32Shl().i32Add().load(48).pmax().set(hi);
  f.end();
  // The same peak so far in both lanes.
  laneMax(f, tp, a, b);
  f.splat().set(tp);
  // (|mid| + G·half-range)·margin < tp in both lanes: skipped.
  f.get(hi).get(lo).add().get(half).mul().abs();
  f.get(gain).get(hi).get(lo).sub().get(half).mul().mul().add();
  f.get(margin).mul().get(tp).lt().allTrue().i32Eqz().if();
  f.get(s).i32(4).i32Shl().set(o);
  f.get(o).i32(SEG).i32Add().get(n).get(o).i32(SEG).i32Add().get(n).i32LtU().select().set(end);
  f.block().loop();
  f.get(o).get(end).i32GeU().brIf(1);
  for (let k = 0; k < 16; k++) f.get(o).i32(4).i32Shl().load(WORK + 16 * k).set(r[k]);
  for (let k = 0; k < 8; k++) {
    f.get(r[15 - k]).get(r[k]).add().set(sum[k]);
    f.get(r[15 - k]).get(r[k]).sub().set(dif[k]);
  }
  // Σ tap·x from the outermost pair in, as the JavaScript loop summed (e1 at 0, o1 at 8, e2 at 16 doubles).
  const dot = (c: number, x: number[], into: number) => {
    f.i32(0).load64Splat(8 * c).get(x[0]).mul();
    for (let k = 1; k < 8; k++) f.i32(0).load64Splat(8 * (c + k)).get(x[k]).mul().add();
    f.set(into);
  };
  dot(0, sum, even1);
  dot(8, dif, odd1);
  dot(16, sum, even2);
  f.get(tp).get(even1).get(odd1).add().abs().pmax();
  f.get(even1).get(odd1).sub().abs().pmax();
  f.get(even2).abs().pmax().set(tp);
  f.get(o).i32(1).i32Add().set(o).br(0);
  f.end().end();
  f.end(); // if
  f.get(s).i32(1).i32Add().set(s).br(0);
  f.end().end();
  // The last 15 pairs become the history.
  f.i32(WORK).get(n).i32(4).i32Shl().i32(WORK).i32Add().i32(HIST * 16).memoryCopy();
  laneMax(f, tp, a, b);
  return f;
}

interface Kernel {
  memory: WebAssembly.Memory;
  prepare(n: number, left: number, right: number, segs: number): number;
  scan(n: number, segs: number, tp: number): number;
}

const layout = (cap: number) => {
  const segs = WORK + (HIST + cap) * 16;
  const left = segs + Math.ceil((HIST + cap) / SEG) * 32;
  return { segs, left, right: left + cap * 4, end: left + cap * 8 };
};

const instance = kernelOnce<Kernel>(() => ({ prepare: prepare(), scan: scan() }), 4096, (cap) => layout(cap).end);

/**
 * Samples per channel measured in one call: a longer chunk goes in slices (the figure does not
 * depend on where chunks end), so the memory stays under 400 KB whatever a decoder hands over.
 */
const MAX_SLICE = 16384;

/**
 * One chunk of a pair of channels: `state` holds [peak so far, sample peak so far] (raised here),
 * `history` the pair's last 15 samples as doubles, interleaved (kept here), `taps` the 24 taps, the
 * gain and the margin.
 */
export function measurePair(
  left: Float32Array,
  right: Float32Array,
  length: number,
  history: Float64Array,
  taps: Float64Array,
  state: Float64Array,
): void {
  for (let from = 0; from < length; from += MAX_SLICE) {
    const n = Math.min(MAX_SLICE, length - from);
    const whole = from === 0 && left.length === n && right.length === n;
    measureSlice(
      whole ? left : left.subarray(from, from + n),
      whole ? right : right.subarray(from, from + n),
      history,
      taps,
      state,
    );
  }
}

function measureSlice(
  left: Float32Array,
  right: Float32Array,
  history: Float64Array,
  taps: Float64Array,
  state: Float64Array,
): void {
  const length = left.length;
  const { k, f32, f64, capacity } = instance(length);
  const at = layout(capacity);
  f64.set(taps, 0);
  f64.set(history, WORK / 8);
  f32.set(left, at.left / 4);
  f32.set(right, at.right / 4);
  const sp = Math.max(state[1], k.prepare(length, at.left, at.right, at.segs));
  const tp = k.scan(length, at.segs, state[0] > sp ? state[0] : sp);
  history.set(f64.subarray(WORK / 8, WORK / 8 + 2 * HIST));
  state[0] = tp;
  state[1] = sp;
}
