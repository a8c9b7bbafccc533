import { useId, useState } from "react";
import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import { TrackFilters, type TrackFilterValues } from "./track-filters.tsx";
import {
  FILTER_PANEL_TEXTS_RU,
  type FilterPanelTexts,
  TRACK_FILTER_TEXTS_RU,
  type TrackFilterTexts,
} from "../texts/track-filter-texts.ts";
import "./track-cards.css";

/** How many filters narrow the list (the sort and the page are not filters). */
export function activeFilterCount(value: TrackFilterValues): number {
  return Object.values(value).filter((v) => v !== "").length;
}

type Props = Parameters<typeof TrackFilters>[0] & { panelTexts?: FilterPanelTexts };

/**
 * The track list's filters: the filter row on a desk; on a phone (issue 23, decision 0227) one
 * button that says how many filters are on and opens them as a panel above the list, so the first
 * screen shows tracks, not seven fields.
 */
export function TrackFiltersPanel({ panelTexts = FILTER_PANEL_TEXTS_RU, ...props }: Props) {
  const phone = useMediaQuery(PHONE_QUERY);
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!phone) return <TrackFilters {...props} />;
  const active = activeFilterCount(props.value);
  const texts: TrackFilterTexts = props.texts ?? TRACK_FILTER_TEXTS_RU;
  return (
    <div className="st-filters-phone">
      <button
        type="button"
        className={active > 0 ? "st-btn st-filters-toggle st-filters-on" : "st-btn st-filters-toggle"}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        data-active-filters={active}
        onClick={() => setOpen(!open)}
      >
        {panelTexts.button(active)}
      </button>
      <div id={`${id}-panel`} className="st-filters-sheet" hidden={!open}>
        {open && (
          <>
            <TrackFilters {...props} texts={texts} />
            <button type="button" className="st-btn st-btn-primary st-filters-done" onClick={() => setOpen(false)}>
              {panelTexts.done}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
