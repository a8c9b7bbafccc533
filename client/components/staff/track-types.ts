/** A track as the staff track lists receive it (admin and moderator APIs). */
export interface StaffTrack {
  id: number;
  filename: string;
  user_id: number | null;
  guest_username: string | null;
  user_info: { id: number; username: string; name?: string | null } | null;
  upload_date: string | number;
  /** Comma list of direction codes. */
  directions: string;
  downloaded: boolean;
  /** Processing status; absent in some answers. */
  status?: string;
}

/** Tracks list filters (spec 2 "Admin tracks list"): all strings, "" = no filter. */
export interface TrackFilterValues {
  filename: string;
  user: string;
  /** YYYY-MM-DD */
  date: string;
  direction: string;
  /** "" | "true" | "false" */
  downloaded: string;
}

export const EMPTY_TRACK_FILTERS: TrackFilterValues = { filename: "", user: "", date: "", direction: "", downloaded: "" };
