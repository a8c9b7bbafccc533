import { PAGINATION_TEXTS_EN, PAGINATION_TEXTS_RU, type PaginationTexts } from "../../../components/ui/pagination.tsx";
import { COMMENT_TEXTS_EN, COMMENT_TEXTS_RU, type CommentTexts } from "./comment-texts.ts";
import { PLAYER_TEXTS_EN, PLAYER_TEXTS_RU, type PlayerTexts } from "./player-texts.ts";
import { REVIEW_TEXTS_EN, REVIEW_TEXTS_RU, type ReviewTexts } from "./review-texts.ts";
import {
  FILTER_PANEL_TEXTS_EN,
  FILTER_PANEL_TEXTS_RU,
  type FilterPanelTexts,
  TRACK_FILTER_TEXTS_EN,
  TRACK_FILTER_TEXTS_RU,
  type TrackFilterTexts,
} from "./track-filter-texts.ts";
import { TRACK_TABLE_TEXTS_EN, TRACK_TABLE_TEXTS_RU, type TrackTableTexts } from "./track-table-texts.ts";

/**
 * One dictionary per panel (issue 31, decision 0280): every word the staff track screens show,
 * Russian for the admin panel and English for the moderator panel. A page takes its parts from here
 * and provides `review` to the shared pieces (review-texts-context.ts).
 */
export interface PanelTexts {
  review: ReviewTexts;
  player: PlayerTexts;
  comments: CommentTexts;
  table: TrackTableTexts;
  filters: TrackFilterTexts;
  filterPanel: FilterPanelTexts;
  pagination: PaginationTexts;
}

export const ADMIN_PANEL_TEXTS: PanelTexts = {
  review: REVIEW_TEXTS_RU,
  player: PLAYER_TEXTS_RU,
  comments: COMMENT_TEXTS_RU,
  table: TRACK_TABLE_TEXTS_RU,
  filters: TRACK_FILTER_TEXTS_RU,
  filterPanel: FILTER_PANEL_TEXTS_RU,
  pagination: PAGINATION_TEXTS_RU,
};

export const MODERATOR_PANEL_TEXTS: PanelTexts = {
  review: REVIEW_TEXTS_EN,
  player: PLAYER_TEXTS_EN,
  comments: COMMENT_TEXTS_EN,
  table: TRACK_TABLE_TEXTS_EN,
  filters: TRACK_FILTER_TEXTS_EN,
  filterPanel: FILTER_PANEL_TEXTS_EN,
  pagination: PAGINATION_TEXTS_EN,
};
