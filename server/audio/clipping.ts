/**
 * Clipping: a sample counts when it belongs to a run of at least CLIP_RUN consecutive samples of one
 * channel at or beyond CLIP_LEVEL (either sign). One sample at full scale is a legitimate peak; three
 * in a row is the flat top of a clipped wave. A decoded MP3 of a clipped master overshoots 1.0
 * rather than sitting at it, which this rule counts too.
 */
export const CLIP_LEVEL = 0.9999;
export const CLIP_RUN = 3;

export interface ClipCounter {
  push(channels: Float32Array[], length: number): void;
  /** Samples (per channel, summed over channels) in runs that qualify. */
  count(): number;
}

export function createClipCounter(channelCount: number): ClipCounter {
  const runs = new Array<number>(channelCount).fill(0);
  let clipped = 0;
  return {
    push(channels, length) {
      for (let c = 0; c < channelCount; c++) {
        const x = channels[c];
        let run = runs[c];
        for (let i = 0; i < length; i++) {
          const v = x[i];
          if (v >= CLIP_LEVEL || v <= -CLIP_LEVEL) {
            run++;
            // The run's first CLIP_RUN - 1 samples are counted once it qualifies, then one by one.
            if (run === CLIP_RUN) clipped += CLIP_RUN;
            else if (run > CLIP_RUN) clipped++;
          } else run = 0;
        }
        runs[c] = run;
      }
    },
    count: () => clipped,
  };
}
