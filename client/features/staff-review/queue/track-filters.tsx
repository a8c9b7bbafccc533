import { useId } from "react";
import { AUDIO_WARNINGS } from "../../../../domain/audio-warnings.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { REVIEW_STATUSES } from "../../../../domain/review.ts";
import { TRACK_VOTE_FILTERS } from "./track-list-search.ts";
import { AI_USE_FILTERS } from "../../../../domain/ai-use-desk.ts";
import { TRACK_FILTER_TEXTS_RU, type TrackFilterTexts } from "../texts/track-filter-texts.ts";
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
  const id = useId();
  const words = useReviewTexts();
  const set = (patch: Partial<TrackFilterValues>) => onChange({ ...value, ...patch });
  return (
    <form className="st-filters" role="search" onSubmit={(e) => e.preventDefault()}>
      <label className="st-field" htmlFor={`${id}-name`}>
        <span>{texts.filename}</span>
        <input
          id={`${id}-name`}
          className="st-input"
          type="search"
          placeholder={texts.filenamePlaceholder}
          value={value.filename}
          onChange={(e) => set({ filename: e.target.value })}
        />
      </label>
      <label className="st-field" htmlFor={`${id}-user`}>
        <span>{texts.user}</span>
        <input
          id={`${id}-user`}
          className="st-input"
          type="search"
          placeholder={texts.userPlaceholder}
          value={value.user}
          onChange={(e) => set({ user: e.target.value })}
        />
      </label>
      <label className="st-field" htmlFor={`${id}-date`}>
        <span>{texts.date}</span>
        <input
          id={`${id}-date`}
          className="st-input"
          type="date"
          value={value.date}
          onChange={(e) => set({ date: e.target.value })}
        />
      </label>
      <label className="st-field" htmlFor={`${id}-direction`}>
        <span>{texts.direction}</span>
        <select
          id={`${id}-direction`}
          className="st-select"
          value={value.direction}
          onChange={(e) => set({ direction: e.target.value })}
        >
          <option value="">{texts.allDirections}</option>
          {directions.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
        </select>
      </label>
      <label className="st-field" htmlFor={`${id}-downloaded`}>
        <span>{texts.downloaded}</span>
        <select
          id={`${id}-downloaded`}
          className="st-select"
          value={value.downloaded}
          onChange={(e) => set({ downloaded: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="true">{texts.downloadedYes}</option>
          <option value="false">{texts.downloadedNo}</option>
        </select>
      </label>
      <label className="st-field" htmlFor={`${id}-warning`}>
        <span>{texts.warning}</span>
        <select
          id={`${id}-warning`}
          className="st-select"
          value={value.warning}
          onChange={(e) => set({ warning: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="any">{texts.anyWarning}</option>
          {AUDIO_WARNINGS.map((w) => <option key={w} value={w}>{words.warnings[w]}</option>)}
        </select>
      </label>
      {/* Issue 13: the review state (with a direction chosen, that direction's); Russian names in both panels. */}
      <label className="st-field" htmlFor={`${id}-review`}>
        <span>{texts.review}</span>
        <select
          id={`${id}-review`}
          className="st-select"
          value={value.review}
          onChange={(e) => set({ review: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="awaiting">{texts.awaiting}</option>
          <option value="overdue">{texts.overdue}</option>
          {REVIEW_STATUSES.map((s) => <option key={s} value={s}>{words.states[s]}</option>)}
        </select>
      </label>
      <label className="st-field" htmlFor={`${id}-assigned`}>
        <span>{texts.assigned}</span>
        <select
          id={`${id}-assigned`}
          className="st-select"
          value={value.assigned}
          onChange={(e) => set({ assigned: e.target.value })}
        >
          <option value="">{texts.all}</option>
          <option value="me">{texts.assignedToMe}</option>
        </select>
      </label>
      {/* Issue 24: "needs a second ear" and the score (decision 0230). */}
      <label className="st-field" htmlFor={`${id}-votes`}>
        <span>{texts.votes}</span>
        <select
          id={`${id}-votes`}
          className="st-select"
          value={value.votes}
          onChange={(e) => set({ votes: e.target.value })}
        >
          <option value="">{texts.all}</option>
          {TRACK_VOTE_FILTERS.map((v) => <option key={v} value={v}>{texts.voteFilters[v]}</option>)}
        </select>
      </label>
      {/* Issue 25: the artist's answer to the AI question. */}
      <label className="st-field" htmlFor={`${id}-ai-use`}>
        <span>{texts.aiUse}</span>
        <select
          id={`${id}-ai-use`}
          className="st-select"
          value={value.ai_use}
          onChange={(e) => set({ ai_use: e.target.value })}
        >
          <option value="">{texts.all}</option>
          {AI_USE_FILTERS.map((v) => <option key={v} value={v}>{texts.aiUseFilters[v]}</option>)}
        </select>
      </label>
      <button type="button" className="st-btn" onClick={onReset}>{texts.reset}</button>
    </form>
  );
}
