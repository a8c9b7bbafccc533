/**
 * The encode steps the audio fixture scripts share (make-fingerprint-fixtures.ts,
 * make-version-fixtures.ts): a synthesised piece written as a 16-bit WAV master
 * (server/testing/master-audio.ts `wavFile`) to a temporary file, and the outside encoders (`lame`,
 * `ffmpeg`) run on it, failing with their own error text.
 */
import { wavFile } from "../server/testing/master-audio.ts";

/** Runs `cmd` with `args`; throws with its stderr when it fails. */
export async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** `ffmpeg` overwriting its output and printing errors only. */
export const ffmpeg = (args: string[]) => run("ffmpeg", ["-y", "-loglevel", "error", ...args]);

/** `lame`, quietly. */
export const lame = (args: string[]) => run("lame", ["--quiet", ...args]);

/**
 * Writes `channels` (at `rate` Hz) as a 16-bit WAV master to a temporary file, gives its path to
 * `use`, and removes it afterwards.
 */
export async function withMaster<T>(
  channels: Float32Array[],
  rate: number,
  use: (path: string) => Promise<T>,
): Promise<T> {
  const path = await Deno.makeTempFile({ suffix: ".wav" });
  try {
    await Deno.writeFile(path, wavFile({ rate, channels }, 16));
    return await use(path);
  } finally {
    await Deno.remove(path);
  }
}
