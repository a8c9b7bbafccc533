import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import { TrackCards } from "./track-cards.tsx";
import { TrackTable } from "./track-table.tsx";
import type { TrackTableProps } from "./track-row-parts.tsx";
import { TRACK_TABLE_TEXTS_RU } from "../texts/track-table-texts.ts";

/**
 * The staff queue: the table on a desk, a list of cards on a phone (issue 23, decision 0227). One
 * of the two is rendered, never both, so each button exists once for screen readers and tests.
 */
export function TrackRows(props: TrackTableProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  return phone ? <TrackCards {...props} texts={props.texts ?? TRACK_TABLE_TEXTS_RU} /> : <TrackTable {...props} />;
}
