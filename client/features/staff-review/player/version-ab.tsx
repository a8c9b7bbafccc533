import { formatDuration } from "../../../lib/format.ts";
import type { TrackCommentView } from "../../../../domain/track-comments.ts";
import { type FeedbackDeskTexts, useFeedbackDeskTexts } from "../texts/feedback-texts.ts";
import type { WaveMarker } from "./waveform.tsx";
import type { VersionAB } from "./use-version-ab.ts";
import "../dock/feedback.css";

/**
 * A new version on the desk (issue 37): «v2 of #N», what the report says changed (loudness, true
 * peak, tempo, key, length), and the A/B switch (B) with the level it matched.
 */
const signed = (x: number, digits = 1) => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(digits)}`;

function changes(ab: VersionAB, t: FeedbackDeskTexts): string[] {
  const a = ab.current?.analysis;
  const b = ab.previous?.analysis;
  if (!a || !b) return [];
  const out: string[] = [];
  const num = (label: string, now: number | null, before: number | null, unit: string, digits = 1) => {
    if (now === null || before === null) return;
    out.push(`${label}: ${before.toFixed(digits)} → ${now.toFixed(digits)} ${unit} (${signed(now - before, digits)})`);
  };
  num(t.change.loudness, a.loudness_lufs, b.loudness_lufs, "LUFS");
  num(t.change.true_peak, a.true_peak_dbtp, b.true_peak_dbtp, "dBTP");
  num(t.change.bpm, a.bpm, b.bpm, "BPM");
  if (a.key !== b.key) out.push(`${t.change.key}: ${b.key ?? "—"} → ${a.key ?? "—"}`);
  out.push(`${t.change.duration}: ${formatDuration(b.duration_s)} → ${formatDuration(a.duration_s)}`);
  return out;
}

export function VersionBar({ ab }: { ab: VersionAB }) {
  const t = useFeedbackDeskTexts();
  if (!ab.active || !ab.current) return null;
  const number = ab.current.version_number ?? 2;
  const originalId = ab.current.versions?.[0]?.id ?? ab.current.version_of!;
  const previousNumber = ab.current.versions?.find((v) => v.id === ab.current!.version_of)?.number ?? number - 1;
  const louder = Math.min(ab.match.current_db, ab.match.previous_db);
  return (
    <div className="dk-version" data-testid="version-bar">
      <span className="dk-version-badge" data-testid="version-badge">{t.versionOf(number, originalId)}</span>
      <button
        type="button"
        className="st-btn st-btn-sm dk-ab"
        aria-keyshortcuts="B"
        aria-pressed={ab.side === "previous"}
        title={t.abTitle}
        disabled={!ab.ready}
        data-side={ab.side}
        data-current-db={ab.match.current_db}
        data-previous-db={ab.match.previous_db}
        onClick={ab.toggle}
      >
        {ab.side === "previous" ? t.abButton(number) : t.abButton(previousNumber)} <kbd aria-hidden="true">B</kbd>
      </button>
      {louder < 0 && <span className="st-muted st-small">{t.matched(louder.toFixed(1).replace("-", "−"))}</span>}
      <ul className="dk-version-changes" aria-label={t.changesTitle} data-testid="version-changes">
        {changes(ab, t).map((c) => <li key={c}>{c}</li>)}
      </ul>
    </div>
  );
}

/** The previous version's comments on the new waveform, marked as such, at their moments. */
export function previousMarkers(
  comments: readonly TrackCommentView[] | undefined,
  t: FeedbackDeskTexts,
): WaveMarker[] {
  return (comments ?? []).map((c) => ({
    id: -c.id,
    at_s: c.at_s,
    end_s: c.end_s,
    shared: c.shared,
    previous: true,
    label: `${t.previousComment}: ${c.text}`,
  }));
}
