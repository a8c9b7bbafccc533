/**
 * A minimal WebAssembly encoder: the few instructions the true-peak kernel (true-peak-kernel.ts) is
 * written in, so the kernel is TypeScript that emits its code, not a binary in the repository. One
 * module with one exported memory and functions; numbers are the binary format's (WebAssembly 2.0,
 * with fixed-width SIMD and bulk memory). docs/decisions/0455.
 */

export const I32 = 0x7f, F64 = 0x7c, V128 = 0x7b;
type ValType = typeof I32 | typeof F64 | typeof V128;

function uleb(n: number, out: number[]) {
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
}

function sleb(n: number, out: number[]) {
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) return void out.push(b);
    out.push(b | 0x80);
  }
}

/** SIMD opcodes (after the 0xfd prefix) the kernel uses. */
const SIMD = {
  load: 0x00,
  load64Splat: 0x0a,
  store: 0x0b,
  f64x2Splat: 0x14,
  f64x2ExtractLane: 0x21,
  f64x2Lt: 0x49,
  load32Lane: 0x56,
  load32Zero: 0x5c,
  f64x2PromoteLow: 0x5f,
  i64x2AllTrue: 0xc3,
  f64x2Abs: 0xec,
  f64x2Neg: 0xed,
  f64x2Add: 0xf0,
  f64x2Sub: 0xf1,
  f64x2Mul: 0xf2,
  f64x2Pmin: 0xf6,
  f64x2Pmax: 0xf7,
} as const;

/** One function's body, written instruction by instruction. */
export class FunctionWriter {
  readonly code: number[] = [];
  readonly #locals: ValType[] = [];
  constructor(readonly params: ValType[], readonly result: ValType | null) {}

  /** A new local of `type`: its index. */
  local(type: ValType): number {
    this.#locals.push(type);
    return this.params.length + this.#locals.length - 1;
  }

  get = (i: number) => this.#op(0x20, i);
  set = (i: number) => this.#op(0x21, i);
  tee = (i: number) => this.#op(0x22, i);
  i32 = (n: number) => (this.code.push(0x41), sleb(n, this.code), this);
  f64 = (x: number) => (this.code.push(0x44, ...new Uint8Array(new Float64Array([x]).buffer)), this);
  i32Add = () => this.#raw(0x6a);
  i32Sub = () => this.#raw(0x6b);
  i32Shl = () => this.#raw(0x74);
  i32ShrU = () => this.#raw(0x76);
  i32LtU = () => this.#raw(0x49);
  i32Eqz = () => this.#raw(0x45);
  i32GeU = () => this.#raw(0x4f);
  f64Lt = () => this.#raw(0x63);
  f64Add = () => this.#raw(0xa0);
  select = () => this.#raw(0x1b);
  /** `block` / `loop` / `if` with no result, and their `end`. */
  block = () => this.#raw(0x02, 0x40);
  loop = () => this.#raw(0x03, 0x40);
  if = () => this.#raw(0x04, 0x40);
  end = () => this.#raw(0x0b);
  br = (depth: number) => this.#op(0x0c, depth);
  brIf = (depth: number) => this.#op(0x0d, depth);
  /** memory.copy within memory 0: (dst, src, length) on the stack. */
  memoryCopy = () => this.#raw(0xfc, 10, 0, 0);
  /** v128.load / store of 16 bytes at the address on the stack plus `offset`. */
  load = (offset = 0) => this.#simd(SIMD.load, 4, offset);
  store = (offset = 0) => this.#simd(SIMD.store, 4, offset);
  load64Splat = (offset = 0) => this.#simd(SIMD.load64Splat, 3, offset);
  load32Zero = (offset = 0) => this.#simd(SIMD.load32Zero, 2, offset);
  /** Replaces lane `lane` (of four 32-bit lanes) of the vector on the stack with the f32 at the address under it. */
  load32Lane = (lane: number, offset = 0) => (this.#simd(SIMD.load32Lane, 2, offset), this.code.push(lane), this);
  splat = () => this.#simd(SIMD.f64x2Splat);
  extractLane = (lane: number) => (this.#simd(SIMD.f64x2ExtractLane), this.code.push(lane), this);
  promoteLow = () => this.#simd(SIMD.f64x2PromoteLow);
  lt = () => this.#simd(SIMD.f64x2Lt);
  allTrue = () => this.#simd(SIMD.i64x2AllTrue);
  abs = () => this.#simd(SIMD.f64x2Abs);
  neg = () => this.#simd(SIMD.f64x2Neg);
  add = () => this.#simd(SIMD.f64x2Add);
  sub = () => this.#simd(SIMD.f64x2Sub);
  mul = () => this.#simd(SIMD.f64x2Mul);
  /** pmin(a, b) = b < a ? b : a, as JavaScript's `if (b < a) a = b` (NaN and −0 alike). */
  pmin = () => this.#simd(SIMD.f64x2Pmin);
  /** pmax(a, b) = a < b ? b : a, as JavaScript's `if (b > a) a = b`. */
  pmax = () => this.#simd(SIMD.f64x2Pmax);

  /** The body: local declarations, code, `end`. */
  body(): number[] {
    const out: number[] = [];
    uleb(this.#locals.length, out);
    for (const t of this.#locals) out.push(1, t);
    out.push(...this.code, 0x0b);
    return out;
  }

  #raw(...bytes: number[]) {
    this.code.push(...bytes);
    return this;
  }
  #op(code: number, index: number) {
    this.code.push(code);
    uleb(index, this.code);
    return this;
  }
  #simd(op: number, align?: number, offset?: number) {
    this.code.push(0xfd);
    uleb(op, this.code);
    if (align !== undefined) {
      uleb(align, this.code);
      uleb(offset ?? 0, this.code);
    }
    return this;
  }
}

function section(id: number, content: number[], out: number[]) {
  out.push(id);
  uleb(content.length, out);
  out.push(...content);
}

const vector = (items: number[][]) => {
  const out: number[] = [];
  uleb(items.length, out);
  for (const item of items) out.push(...item);
  return out;
};

const name = (s: string) => {
  const bytes = [...new TextEncoder().encode(s)];
  const out: number[] = [];
  uleb(bytes.length, out);
  return out.concat(bytes);
};

/** A module with one memory of `pages` 64 KiB pages, exported as "memory", and these functions. */
export function encodeModule(pages: number, functions: Record<string, FunctionWriter>): Uint8Array<ArrayBuffer> {
  const list = Object.entries(functions);
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  section(
    1,
    vector(list.map(([, f]) => [0x60, ...vector(f.params.map((p) => [p])), ...vector(f.result ? [[f.result]] : [])])),
    out,
  );
  section(
    3,
    vector(list.map((_, i) => {
      const b: number[] = [];
      uleb(i, b);
      return b;
    })),
    out,
  );
  const limits: number[] = [0x00];
  uleb(pages, limits);
  section(5, vector([limits]), out);
  section(
    7,
    vector([
      [...name("memory"), 0x02, 0x00],
      ...list.map(([n], i) => {
        const b = [...name(n), 0x00];
        uleb(i, b);
        return b;
      }),
    ]),
    out,
  );
  section(
    10,
    vector(list.map(([, f]) => {
      const body = f.body();
      const b: number[] = [];
      uleb(body.length, b);
      return b.concat(body);
    })),
    out,
  );
  return new Uint8Array(out);
}

/** The kernel as one call sees it: its exports and its memory as floats, with room for `capacity` samples a channel. */
export interface KernelView<K> {
  k: K;
  f32: Float32Array;
  f64: Float64Array;
  capacity: number;
}

/**
 * One instance of a module of these functions for the whole process (decision 0455), made on first
 * use; each call asks for room for `n` samples a channel, and the memory grows (at least doubling,
 * from `minCapacity`) to the `bytesFor(capacity)` its layout needs. Callers pass their own state in.
 */
export function kernelOnce<K extends { memory: WebAssembly.Memory }>(
  functions: () => Record<string, FunctionWriter>,
  minCapacity: number,
  bytesFor: (capacity: number) => number,
): (n: number) => KernelView<K> {
  let k: K | null = null;
  let capacity = 0;
  let f32 = new Float32Array(0);
  let f64 = new Float64Array(0);
  return (n) => {
    k ??= new WebAssembly.Instance(new WebAssembly.Module(encodeModule(1, functions()))).exports as unknown as K;
    if (n > capacity) {
      capacity = Math.max(n, 2 * capacity, minCapacity);
      const pages = Math.ceil(bytesFor(capacity) / 65536) - k.memory.buffer.byteLength / 65536;
      if (pages > 0) k.memory.grow(pages);
    }
    if (f64.buffer !== k.memory.buffer) {
      f32 = new Float32Array(k.memory.buffer);
      f64 = new Float64Array(k.memory.buffer);
    }
    return { k, f32, f64, capacity };
  };
}
