import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { type FormEvent, useEffect, useId, useState } from "react";
import { type Direction, parseDirections } from "../../../../domain/directions.ts";
import { formatDirections } from "../../../../domain/staff-directions.ts";
import { DirectionCheckboxes } from "./direction-checkboxes.tsx";
import { useDocumentTitle } from "../../../components/ui/use-document-title.ts";
import { useRedirectAfter } from "../../../components/ui/use-redirect-after.ts";
import { trackListPlace } from "../queue/track-list-search.ts";
import { errorText } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { moderatorKeys } from "../../../lib/staff-queries.ts";
import { TrackVotes } from "../votes/track-votes.tsx";
import { moderatorTrackQuery, useModerateTrack } from "../api/moderator-tracks-api.ts";
import { DecisionPanel } from "./decision-panel.tsx";
import { canManage, categoryLabel } from "../../../lib/moderator-categories.ts";
import { useModeratorStatus } from "../../../lib/moderator-status.ts";
import { MODERATOR_PANEL_TEXTS } from "../texts/panel-texts.ts";
import { ReviewTextsContext } from "../texts/review-texts-context.ts";

export interface TrackEditValue {
  directions: Direction[];
  downloaded: boolean;
}

/** Spec 2 §4: Save is enabled only when the directions differ from the loaded set or downloaded changed. */
export function trackEditChanged(initial: TrackEditValue, current: TrackEditValue): boolean {
  return formatDirections(initial.directions) !== formatDirections(current.directions) ||
    initial.downloaded !== current.downloaded;
}

export const DIRECTIONS_HELP = "You can only change directions for the categories you manage.";

/** Edit Track in the moderator panel's words (issue 31): the shared pieces read the English dictionary. */
export function ModeratorTrackEditPage() {
  return (
    <ReviewTextsContext value={MODERATOR_PANEL_TEXTS.review}>
      <ModeratorTrackEdit />
    </ReviewTextsContext>
  );
}

/** Edit Track: read-only details, directions within the categories, the downloaded status. */
function ModeratorTrackEdit() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const trackId = Number(id);
  useDocumentTitle("Edit Track");
  const moderate = useModerateTrack();
  const redirect = useRedirectAfter();
  const fid = useId();
  const { categories } = useModeratorStatus();
  const query = useQuery({ ...moderatorTrackQuery(trackId), enabled: Number.isSafeInteger(trackId) && trackId > 0 });
  const track = query.data;

  const [initial, setInitial] = useState<TrackEditValue | null>(null);
  const [value, setValue] = useState<TrackEditValue | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!track || initial) return;
    const v = { directions: parseDirections(track.directions), downloaded: Boolean(track.downloaded) };
    setInitial(v);
    setValue(v);
  }, [track, initial]);

  const changed = initial !== null && value !== null && trackEditChanged(initial, value);
  const empty = value !== null && value.directions.length === 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value || !changed || empty || saving || saved) return;
    setSaving(true);
    setError(null);
    try {
      await moderate.mutateAsync({
        id: trackId,
        body: { directions: formatDirections(value.directions), downloaded: value.downloaded },
      });
      setSaved(true);
      redirect("/moderator/tracks", undefined, trackListPlace("/moderator"));
    } catch (err) {
      setError(errorText(err, "Failed to update track", "Error updating track"));
    } finally {
      setSaving(false);
    }
  };

  const uploader = track
    ? track.user_info?.name?.trim() || track.user_info?.username || track.guest_username || "Unknown"
    : "";
  const notFound = !Number.isSafeInteger(trackId) || trackId <= 0;

  return (
    <section className="st-page">
      <Link to="/moderator/tracks" search={trackListPlace("/moderator")} className="mod-back">← Back to Tracks</Link>
      <div className="st-page-head">
        <h1>Edit Track</h1>
      </div>

      {query.isPending && !notFound && <p className="st-muted" role="status">Loading track...</p>}
      {(query.isError || notFound) && (
        <div className="st-alert st-alert-error" role="alert">
          {notFound
            ? "Failed to load track data"
            : errorText(query.error, "Failed to load track data", "Error loading track data")}
        </div>
      )}

      {track && value && (
        <form className="st-section" onSubmit={submit} noValidate>
          {saved && <div className="st-alert st-alert-success" role="status">Track updated successfully</div>}
          {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
          <dl className="mod-readonly">
            <dt>Filename</dt>
            <dd data-testid="track-filename" data-user-content="">{track.filename}</dd>
            <dt>Uploaded by</dt>
            <dd data-user-content="">{uploader}</dd>
            <dt>Upload date</dt>
            <dd>{formatDateTime(track.upload_date)}</dd>
          </dl>

          <DirectionCheckboxes
            legend="Directions"
            value={value.directions}
            onChange={(directions) => setValue({ ...value, directions })}
            label={categoryLabel}
            locked={(d) => categories === null || !canManage(d, categories)}
            disabled={saving || saved}
            help={categories === "*" ? undefined : DIRECTIONS_HELP}
          />
          {empty && (
            <p className="st-hint" style={{ color: "var(--danger)", margin: "6px 0 0" }}>
              Select at least one direction.
            </p>
          )}

          <fieldset className="st-fieldset" style={{ marginTop: 18 }}>
            <legend className="st-label" style={{ marginBottom: 8 }}>Status</legend>
            <div className="st-radio-row">
              <label className="st-check">
                <input
                  type="radio"
                  name={`${fid}-downloaded`}
                  checked={!value.downloaded}
                  disabled={saving || saved}
                  onChange={() => setValue({ ...value, downloaded: false })}
                />
                <span>Not downloaded</span>
              </label>
              <label className="st-check">
                <input
                  type="radio"
                  name={`${fid}-downloaded`}
                  checked={value.downloaded}
                  disabled={saving || saved}
                  onChange={() => setValue({ ...value, downloaded: true })}
                />
                <span>Downloaded</span>
              </label>
            </div>
          </fieldset>

          <div className="st-form-actions">
            <Link to="/moderator/tracks" search={trackListPlace("/moderator")} className="st-btn">Cancel</Link>
            <button type="submit" className="st-btn st-btn-primary" disabled={saving || saved || !changed || empty}>
              {saving ? "Saving..." : "Save Changes"}
            </button>
          </div>
        </form>
      )}
      {track && (
        <TrackVotes base="/moderator" tracksKey={moderatorKeys.tracks} trackId={track.id} label={categoryLabel} />
      )}
      {track && (
        <DecisionPanel
          base="/moderator"
          tracksKey={moderatorKeys.tracks}
          track={track}
          label={categoryLabel}
          canDecide={(d) => categories !== null && canManage(d, categories)}
        />
      )}
    </section>
  );
}
