import { createContext, useContext } from "react";
import { REVIEW_TEXTS_RU, type ReviewTexts } from "./review-texts.ts";

/**
 * The shared review pieces read their words from the panel they are shown in (issue 31): the
 * moderator's pages provide the English dictionary's `review` part; without a provider (the admin
 * panel) the words are Russian.
 */
export const ReviewTextsContext = createContext<ReviewTexts>(REVIEW_TEXTS_RU);

export const useReviewTexts = (): ReviewTexts => useContext(ReviewTextsContext);
