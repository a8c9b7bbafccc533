/**
 * Everything measured on the decoded samples, in one pass over each chunk as it is decoded: the
 * sample count, loudness, true peak, clipping, waveform peaks, the band envelopes that tempo and
 * drop detection read at the end, the key's chromagram (key.ts) and the audio fingerprint
 * (fingerprint.ts). Tests feed it generated PCM directly.
 */
import { createBandEnvelopes } from "./band-envelopes.ts";
import { createClipCounter } from "./clipping.ts";
import { findDrop } from "./drop.ts";
import { createFingerprinter, type Fingerprint } from "./fingerprint.ts";
import { createKeyChroma } from "./key.ts";
import { createLoudnessMeter } from "./loudness.ts";
import { readTempo } from "./tempo.ts";
import { createTruePeakMeter } from "./true-peak.ts";
import { createPeakCollector } from "./waveform.ts";

export interface PcmFacts {
  /** Samples per channel. */
  samples: number;
  /** Integrated loudness (one decimal), or null when no block passes the -70 LUFS gate. */
  loudness_lufs: number | null;
  /** dBTP (one decimal), or null for digital silence. */
  true_peak_dbtp: number | null;
  clipped_samples: number;
  bpm: number | null;
  /** How sure the tempo reading is, 0–1 (three decimals); null when there was nothing to read. */
  bpm_confidence: number | null;
  drop_s: number | null;
  /** The musical key, e.g. "F minor" (domain/musical-key.ts); null when nothing tonal was heard. */
  key: string | null;
  /** Its Camelot code, e.g. "4A"; null with `key`. */
  camelot: string | null;
  /** How sure the key reading is, 0–1 (three decimals); null with `key` (docs/decisions/0215). */
  key_confidence: number | null;
  peaks: [number, number][];
  /** The audio fingerprint's sub-fingerprints (fingerprint.ts); kept apart from the report. */
  fingerprint: Fingerprint;
}

export interface PcmAnalyser {
  /** Planar samples, one array per channel (at least `channelCount`), `length` samples each. */
  push(channels: Float32Array[], length: number): void;
  finish(): PcmFacts;
}

const round1 = (x: number) => Math.round(x * 10) / 10 + 0;

export function createPcmAnalyser(sampleRate: number, channelCount: number): PcmAnalyser {
  const loudness = createLoudnessMeter(sampleRate, channelCount);
  const truePeak = createTruePeakMeter(channelCount);
  const clips = createClipCounter(channelCount);
  const peaks = createPeakCollector(channelCount);
  // The key's chromagram and the fingerprint read the band envelopes' half-rate mono mix.
  const chroma = createKeyChroma(sampleRate / 2);
  const print = createFingerprinter(sampleRate / 2);
  const bands = createBandEnvelopes(sampleRate, channelCount, (mono, length) => {
    chroma.push(mono, length);
    print.push(mono, length);
  });
  let samples = 0;
  return {
    push(channels, length) {
      if (length === 0) return;
      samples += length;
      loudness.push(channels, length);
      truePeak.push(channels, length);
      clips.push(channels, length);
      peaks.push(channels, length);
      bands.push(channels, length);
    },
    finish() {
      truePeak.finish();
      const lufs = loudness.integrated();
      const tp = truePeak.peak();
      const tempo = readTempo(bands.onsets(), bands.onsetRate);
      const key = chroma.finish();
      return {
        samples,
        loudness_lufs: lufs === null ? null : round1(lufs),
        true_peak_dbtp: tp > 0 ? round1(20 * Math.log10(tp)) : null,
        clipped_samples: clips.count(),
        bpm: tempo.estimate?.bpm ?? null,
        bpm_confidence: tempo.confidence === null ? null : Math.round(tempo.confidence * 1000) / 1000,
        // The beat sets the drop's window for a kick's gap and its bar to hold for (0214).
        drop_s: findDrop(bands.lowLevels(), bands.segmentRate, tempo.estimate ? 60 / tempo.estimate.bpm : null),
        key: key.key,
        camelot: key.camelot,
        key_confidence: key.confidence,
        peaks: peaks.peaks(),
        fingerprint: print.finish(),
      };
    },
  };
}
