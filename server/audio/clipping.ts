/**
 * Clipping: a sample counts when it belongs to a run of at least CLIP_RUN consecutive samples of one
 * channel, all at or beyond CLIP_LEVEL with the same sign: the flat top (or floor) of a clipped wave.
 * One sample at full scale is a legitimate peak, and samples alternating ±1 are a loud high tone,
 * not a flat top.
 *
 * Why two and not three: a lossy encoder smears a flat top into a ripple around full scale. Measured
 * on a synthetic master driven ~6 dB into a hard clip (mono, 44.1 kHz, decoded by mpg123): at 128
 * kbps it left 182 samples over full scale but not one run of three, only runs of two (10 samples);
 * at 96 kbps, 17 samples in runs of three and 37 in runs of two. The same loop kept under full scale
 * (peak -0.1 dBFS before encoding) gave none either way. Milder clipping can vanish entirely in a
 * low-bitrate decode; true_peak_dbtp above 0 still shows it. See docs/decisions/0100-audio-analysis-library.md.
 */
export const CLIP_LEVEL = 0.9999;
export const CLIP_RUN = 2;

export interface ClipCounter {
  push(channels: Float32Array[], length: number): void;
  /** Samples (per channel, summed over channels) in runs that qualify. */
  count(): number;
}

export function createClipCounter(channelCount: number): ClipCounter {
  // Per channel: the length of the current run, positive above +CLIP_LEVEL, negative below -CLIP_LEVEL.
  const runs = new Array<number>(channelCount).fill(0);
  let clipped = 0;
  return {
    push(channels, length) {
      for (let c = 0; c < channelCount; c++) {
        const x = channels[c];
        let run = runs[c];
        for (let i = 0; i < length; i++) {
          const v = x[i];
          if (v >= CLIP_LEVEL) run = run > 0 ? run + 1 : 1;
          else if (v <= -CLIP_LEVEL) run = run < 0 ? run - 1 : -1;
          else {
            run = 0;
            continue;
          }
          // A run's first CLIP_RUN - 1 samples are counted once it qualifies, then one by one.
          const n = run < 0 ? -run : run;
          if (n === CLIP_RUN) clipped += CLIP_RUN;
          else if (n > CLIP_RUN) clipped++;
        }
        runs[c] = run;
      }
    },
    count: () => clipped,
  };
}
