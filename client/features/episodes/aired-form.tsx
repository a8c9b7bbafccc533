import { type FormEvent, useState } from "react";
import { formatCue } from "../../../domain/episodes.ts";
import { Field } from "../../components/ui/field.tsx";
import { errorText } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { EpisodeView, EpisodeWrites, Row } from "./api.ts";
import { type EpisodeTexts, parseCue } from "./episode-texts.ts";

/** `YYYY-MM-DDTHH:MM` in local time, for a datetime-local input. */
function localInput(date: Date): string {
  const d = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * «Aired» (issue 35): when, the link, and a cue per track (optional). The server sends each artist
 * one message the first time; a later save corrects the page and the history only.
 */
export function AiredForm(
  { t, episode, rows, writes }: { t: EpisodeTexts; episode: EpisodeView; rows: Row[]; writes: EpisodeWrites },
) {
  const [at, setAt] = useState(localInput(episode.aired_at ? new Date(episode.aired_at) : new Date()));
  const [url, setUrl] = useState(episode.url ?? "");
  const [cues, setCues] = useState<Record<number, string>>(() =>
    Object.fromEntries(episode.tracks.filter((r) => r.at_s !== null).map((r) => [r.track_id, formatCue(r.at_s!)]))
  );
  const [bad, setBad] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const list = rows.map((r) => ({ track_id: r.track_id, text: (cues[r.track_id] ?? "").trim() }))
      .filter((c) => c.text !== "");
    const parsed = list.map((c) => ({ track_id: c.track_id, at_s: parseCue(c.text) }));
    if (parsed.some((c) => c.at_s === null)) return setBad(true);
    setBad(false);
    writes.aired.mutate({
      aired_at: new Date(at).toISOString(),
      url: url.trim(),
      cues: parsed.map((c) => ({ track_id: c.track_id, at_s: c.at_s! })),
    });
  };
  return (
    <form className="st-section ep-aired" onSubmit={submit} aria-labelledby="ep-aired-h">
      <h2 id="ep-aired-h">{t.airedTitle}</h2>
      {episode.aired_at && (
        <p className="st-alert st-alert-success" role="status">{t.airedDone(formatDateTime(episode.aired_at))}</p>
      )}
      <div className="ep-aired-grid">
        <Field label={t.airedAt}>
          <input
            className="st-input"
            type="datetime-local"
            name="aired_at"
            required
            value={at}
            onChange={(e) => setAt(e.target.value)}
          />
        </Field>
        <Field label={t.url} className="ep-grow">
          <input
            className="st-input"
            type="url"
            name="url"
            required
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
      </div>
      {rows.length > 0 && (
        <ol className="ep-cues">
          {rows.map((r, i) => (
            <li key={r.track_id}>
              <Field inline label={<>{String(i + 1).padStart(2, "0")}. {r.artist} — {r.title}</>}>
                <input
                  className="st-input ep-cue"
                  name={`cue-${r.track_id}`}
                  aria-label={`${t.cue}: ${r.artist} — ${r.title}`}
                  placeholder={t.cueHint}
                  value={cues[r.track_id] ?? ""}
                  onChange={(e) => setCues({ ...cues, [r.track_id]: e.target.value })}
                />
              </Field>
            </li>
          ))}
        </ol>
      )}
      {bad && <div className="st-alert st-alert-error" role="alert">{t.badCue}</div>}
      {writes.aired.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(writes.aired.error, t.saveFailed)}</div>
      )}
      <button type="submit" className="st-btn st-btn-primary" disabled={writes.aired.isPending}>
        {writes.aired.isPending ? t.saving : episode.aired_at ? t.saveAired : t.markAired}
      </button>
    </form>
  );
}
