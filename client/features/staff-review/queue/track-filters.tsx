import { AUDIO_WARNINGS } from "../../../../domain/audio-warnings.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { REVIEW_STATUSES } from "../../../../domain/review.ts";
import { TRACK_VOTE_FILTERS } from "./track-list-search.ts";
import { AI_USE_FILTERS } from "../../../../domain/ai-use-desk.ts";
import { TRACK_FILTER_TEXTS_RU, type TrackFilterTexts } from "../texts/track-filter-texts.ts";
import { Field } from "../../../components/ui/field.tsx";
import "../../../components/ui/staff.css";

/** Tracks list filters (spec 2 "Admin tracks list"): all strings, "" = no filter. */
export interface TrackFilterValues {
  filename: string;
  user: string;
  /** YYYY-MM-DD */
  date: string;
  direction: string;
  /** "" | "true" | "false" */
  downloaded: string;
  /** "" | "any" | a warning code (domain/audio-warnings.ts). */
  warning: string;
  /** "" | a review state (domain/review.ts, issue 13). */
  review: string;
  /** "" | "me": «Мне назначено» (issue 24). */
  assigned: string;
  /** "" | a votes filter (issue 24, decision 0230): second_ear, positive, negative, none. */
  votes: string;
  /** "" | the AI question's answer (issue 25): no, partly, yes, or none (no answer). */
  ai_use: string;
}

export const EMPTY_TRACK_FILTERS: TrackFilterValues = {
  filename: "",
  user: "",
  date: "",
  direction: "",
  downloaded: "",
  warning: "",
  review: "",
  assigned: "",
  votes: "",
  ai_use: "",
};

interface TrackFiltersProps {
  value: TrackFilterValues;
  onChange: (value: TrackFilterValues) => void;
  onReset: () => void;
  /** The directions offered (admins: all six; moderators: their categories). */
  directions: ReadonlyArray<{ value: string; label: string }>;
  texts?: TrackFilterTexts;
}

/**
 * The filter row above a track table: name, user, date, direction, downloaded, warning (issue 12;
 * the warning names are the analysis's Russian texts in both panels), reset.
 */
export function TrackFilters(
  { value, onChange, onReset, directions, texts = TRACK_FILTER_TEXTS_RU }: TrackFiltersProps,
) {
  const words = useReviewTexts();
  const set = (patch: Partial<TrackFilterValues>) => onChange({ ...value, ...patch });
  return (
    <form className="st-filters" role="search" onSubmit={(e) => e.preventDefault()}>
      <Field label={texts.filename}>
        <input
          className="st-input"
          type="search"
          placeholder={texts.filenamePlaceholder}
          value={value.filename}
          onChange={(e) => set({ filename: e.target.value })}
        />
      </Field>
      <Field label={texts.user}>
        <input
          className="st-input"
          type="search"
          placeholder={texts.userPlaceholder}
          value={value.user}
          onChange={(e) => set({ user: e.target.value })}
        />
      </Field>
      <Field label={texts.date}>
        <input
          className="st-input"
          type="date"
          value={value.date}
          onChange={(e) => set({ date: e.target.value })}
        />
      </Field>
      <Field label={texts.direction}>
        <select
          className="st-select"
          value={value.direction}
          onChange={(e) => set({ direction: e.target.value })}
        >
          <option value="">{texts.allDirections}</option>
          {directions.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
        </select>
      </Field>
      <Field label={texts.downloaded}>
        <select
          className="st-select"
          value={value.downloaded}
          onChange={(e) => set({ downloaded: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="true">{texts.downloadedYes}</option>
          <option value="false">{texts.downloadedNo}</option>
        </select>
      </Field>
      <Field label={texts.warning}>
        <select
          className="st-select"
          value={value.warning}
          onChange={(e) => set({ warning: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="any">{texts.anyWarning}</option>
          {AUDIO_WARNINGS.map((w) => <option key={w} value={w}>{words.warnings[w]}</option>)}
        </select>
      </Field>
      {/* Issue 13: the review state (with a direction chosen, that direction's); Russian names in both panels. */}
      <Field label={texts.review}>
        <select
          className="st-select"
          value={value.review}
          onChange={(e) => set({ review: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="awaiting">{texts.awaiting}</option>
          <option value="overdue">{texts.overdue}</option>
          {REVIEW_STATUSES.map((s) => <option key={s} value={s}>{words.states[s]}</option>)}
        </select>
      </Field>
      <Field label={texts.assigned}>
        <select
          className="st-select"
          value={value.assigned}
          onChange={(e) => set({ assigned: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="me">{texts.assignedToMe}</option>
        </select>
      </Field>
      {/* Issue 24: "needs a second ear" and the score (decision 0230). */}
      <Field label={texts.votes}>
        <select
          className="st-select"
          value={value.votes}
          onChange={(e) => set({ votes: e.target.value })}
        >
          <option value="">{texts.all}</option>
          {TRACK_VOTE_FILTERS.map((v) => <option key={v} value={v}>{texts.voteFilters[v]}</option>)}
        </select>
      </Field>
      {/* Issue 25: the artist's answer to the AI question. */}
      <Field label={texts.aiUse}>
        <select
          className="st-select"
          value={value.ai_use}
          onChange={(e) => set({ ai_use: e.target.value })}
        >
          <option value="">{texts.all}</option>
          {AI_USE_FILTERS.map((v) => <option key={v} value={v}>{texts.aiUseFilters[v]}</option>)}
        </select>
      </Field>
      <button type="button" className="st-btn" onClick={onReset}>{texts.reset}</button>
    </form>
  );
}
