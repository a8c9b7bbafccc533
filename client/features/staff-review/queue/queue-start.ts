/**
 * Where the moderator's queue starts (issue 31, decision 0276): «Новые», oldest first, as the
 * dashboard's and the sidebar's links open it. A bare /moderator/tracks typed or bookmarked lands
 * here, and so does the edit page's way back when the list was not opened in this session. A module
 * of its own with no imports: the router (the public entry) reads it without the list's address
 * parsers (decision 0266).
 */
export const MODERATOR_QUEUE_START = { review: "new", sort: "upload_date" } as const;
