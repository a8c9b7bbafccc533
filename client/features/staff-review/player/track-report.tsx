import { warningText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { formatDuration } from "../../../lib/format.ts";
import { formatBitrate, formatBpm, formatKey, formatLoudness, formatTruePeak, type TrackAnalysis } from "./figures.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";

/** The warnings of a track as badges, in the panel's words. */
export function WarningBadges({ warnings, label }: { warnings: readonly string[]; label: string }) {
  const words = useReviewTexts();
  if (warnings.length === 0) return null;
  return (
    <ul className="st-badges st-warning-badges" aria-label={label}>
      {warnings.map((w) => (
        <li key={w} className="st-badge st-badge-warning" data-warning={w}>{warningText(words, w)}</li>
      ))}
    </ul>
  );
}

/** The technical report beside the player: duration, bitrate, LUFS, true peak, BPM, key, warnings. */
export function TrackReport({ analysis, texts }: { analysis: TrackAnalysis | null; texts: PlayerTexts }) {
  if (!analysis) {
    return (
      <section className="st-report" aria-label={texts.report}>
        <p className="st-muted st-small">{texts.noAnalysis}</p>
      </section>
    );
  }
  const figures: Array<[string, string]> = [
    [texts.duration, formatDuration(analysis.duration_s)],
    [texts.bitrate, formatBitrate(analysis, texts.locale)],
    [texts.loudness, formatLoudness(analysis.loudness_lufs, texts.locale)],
    [texts.truePeak, formatTruePeak(analysis.true_peak_dbtp, texts.locale)],
    [texts.bpm, formatBpm(analysis.bpm, texts.locale)],
    [texts.key, formatKey(analysis)],
  ];
  return (
    <section className="st-report" aria-label={texts.report}>
      <dl className="st-report-figures">
        {figures.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {analysis.warnings.length > 0
        ? <WarningBadges warnings={analysis.warnings} label={texts.warnings} />
        : <p className="st-small st-report-ok">{texts.noWarnings}</p>}
    </section>
  );
}
