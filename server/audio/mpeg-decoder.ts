/**
 * mpg123 (the WebAssembly build inside `mpg123-decoder`), driven without the package's per-call
 * copies and reused from one file to the next. See docs/decisions/0104-processing-memory.md.
 *
 * - `MPEGDecoder.decode` slices every output block out of the WebAssembly memory and then joins the
 *   slices: about 2.9 MB of new buffers for each 64 KiB of 128 kbps input, 2 GB for a 50 MB upload.
 *   Their bytes live outside the JavaScript heap, so V8 frees them only after ~64 MB have piled up.
 *   Here each block goes to the caller as views into the decoder's own output buffer instead.
 * - Each `MPEGDecoder` is a WebAssembly instance with a fixed 16 MB memory (it cannot grow) of
 *   which decoding touches about 3 MB. `free()` returns mpg123's allocations to that memory but not
 *   the memory itself, which goes only when V8 collects the instance; nothing makes it collect soon
 *   (the memory is not counted as V8's external memory), so one instance per upload piles up about
 *   3 MB each. So instances are kept in a small pool and given a fresh mpg123 handle for every file.
 *
 * This uses the package's private fields (mpg123-decoder 1.0.3, pinned in deno.json). The loop in
 * `decode` is the package's own `decode`, minus the copies; a missing field fails at construction,
 * and server/audio's tests decode real files, so an upgrade that changes them fails there.
 */
import { MPEGDecoder } from "mpg123-decoder";

interface WasmBuffer<T> {
  ptr: number;
  len: number;
  buf: T;
}

/** What `MPEGDecoder` keeps once `ready` (src/MPEGDecoder.js and @wasm-audio-decoders/common). */
interface Internals {
  _common: {
    wasm: {
      mpeg_frame_decoder_create(decoderPtr: number, gapless: number): number;
      mpeg_frame_decoder_destroy(decoder: number): void;
      mpeg_decoder_feed(decoder: number, input: number, length: number): number;
      mpeg_decoder_read(
        decoder: number,
        output: number,
        outputLength: number,
        samplesDecoded: number,
        sampleRate: number,
        errorString: number,
      ): number;
    };
    allocateTypedArray<T>(
      len: number,
      type: { new (buffer: ArrayBuffer, offset: number, length: number): T },
    ): WasmBuffer<T>;
  };
  _decoder: number;
  _input: WasmBuffer<Uint8Array>;
  _output: WasmBuffer<Float32Array>;
  _samplesDecodedPtr: WasmBuffer<Uint32Array>;
  _sampleRatePtr: WasmBuffer<Uint32Array>;
  _errorStringPtr: WasmBuffer<Uint32Array>;
  _getErrorMessage(code: number): string;
}

/** mpg123's return codes the loop acts on. */
const NEED_MORE = -10;
const NEW_FORMAT = -11;

/**
 * Called for every decoded block: `channels` are two views (mpg123 always gives two; a mono file's
 * second is a copy) valid only during the call, `samples` long each.
 */
export type PcmSink = (channels: Float32Array[], samples: number, sampleRate: number) => void;

export interface PcmDecoder {
  /** Feeds MPEG bytes and hands every block decoded from them to `sink`. */
  decode(data: Uint8Array, sink: PcmSink): void;
  /** Done with this stream: the decoder goes back to the pool with a fresh mpg123 handle, or is dropped. */
  release(): void;
}

class PooledDecoder implements PcmDecoder {
  readonly #d: Internals;
  /** Where mpg123_frame_decoder_create writes a new handle. */
  readonly #handlePtr: WasmBuffer<Uint32Array>;
  readonly #left: Float32Array[] = [];
  #released = false;

  constructor(decoder: MPEGDecoder) {
    const d = decoder as unknown as Internals;
    const wasm = d._common?.wasm;
    if (
      typeof wasm?.mpeg_decoder_read !== "function" || typeof wasm.mpeg_frame_decoder_create !== "function" ||
      !(d._output?.buf instanceof Float32Array) || !(d._input?.buf instanceof Uint8Array) ||
      typeof d._decoder !== "number"
    ) {
      throw new Error("mpg123-decoder's internals are not those of 1.0.3 (server/audio/mpeg-decoder.ts)");
    }
    this.#d = d;
    this.#handlePtr = d._common.allocateTypedArray(1, Uint32Array);
  }

  decode(data: Uint8Array, sink: PcmSink): void {
    const d = this.#d;
    const wasm = d._common.wasm;
    const input = d._input;
    const output = d._output;
    const decoded = d._samplesDecodedPtr.buf;
    feed: for (let offset = 0, length = 0; offset < data.length; offset += length) {
      const chunk = data.subarray(offset, offset + input.len);
      length = chunk.length;
      input.buf.set(chunk);
      let code = wasm.mpeg_decoder_feed(d._decoder, input.ptr, length);
      if (code === NEED_MORE) continue feed;
      for (;;) {
        decoded[0] = 0;
        code = wasm.mpeg_decoder_read(
          d._decoder,
          output.ptr,
          output.len,
          d._samplesDecodedPtr.ptr,
          d._sampleRatePtr.ptr,
          d._errorStringPtr.ptr,
        );
        const n = decoded[0];
        if (n) {
          // Planar: the first channel's n samples, then the second's.
          const left = this.#left;
          left[0] = output.buf.subarray(0, n);
          left[1] = output.buf.subarray(n, 2 * n);
          sink(left, n, d._sampleRatePtr.buf[0]);
        }
        if (code === NEW_FORMAT) continue;
        if (code === NEED_MORE) continue feed;
        // As the package does: a frame mpg123 cannot decode is reported and the stream goes on.
        if (code) console.error("mpg123-decoder: " + d._getErrorMessage(code));
      }
    }
  }

  /**
   * Drops mpg123's state for the last stream and starts a new one (gapless on, as the package does).
   * `mpeg_frame_decoder_destroy` frees the handle itself: the package's `free()` frees it a second
   * time, harmless only because the instance is then thrown away, and fatal to one that is reused.
   */
  #renew(): void {
    const d = this.#d;
    const wasm = d._common.wasm;
    wasm.mpeg_frame_decoder_destroy(d._decoder);
    d._decoder = 0;
    const code = wasm.mpeg_frame_decoder_create(this.#handlePtr.ptr, 1);
    if (code) throw new Error(d._getErrorMessage(code));
    d._decoder = this.#handlePtr.buf[0];
  }

  /** Taken from the pool by `acquireDecoder`. */
  take(): this {
    this.#released = false;
    return this;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    // Not kept: the whole instance goes when V8 collects it (nothing inside it needs freeing first).
    if (idle.length >= MAX_IDLE) return;
    try {
      this.#renew();
    } catch {
      // No new handle: not reused.
      return;
    }
    idle.push(this);
  }
}

/**
 * Idle decoders kept: one per processing job at the default PROCESSING_CONCURRENCY. Each holds about
 * 3 MB resident; with more jobs at once, the extra instances are dropped after use.
 */
const MAX_IDLE = 2;
const idle: PooledDecoder[] = [];

/** A decoder ready for a new stream: from the pool, or a new instance. Call `release()` when done. */
export async function acquireDecoder(): Promise<PcmDecoder> {
  const pooled = idle.pop();
  if (pooled) return pooled.take();
  const decoder = new MPEGDecoder();
  await decoder.ready;
  return new PooledDecoder(decoder);
}
