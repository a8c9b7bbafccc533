/**
 * Which capability (folder under server/) writes which table of db/schema.ts. Any server file may
 * read any table, but only the files of a table's owner insert, update or delete its rows; another
 * capability asks the owner's service. scripts/boundaries.test.ts checks every non-test server file
 * against this list and fails on a table of the schema that no capability owns. Tables kept by
 * triggers (the counts, `track_pair_facts`) belong to the capability whose writes fire them.
 */
export const TABLE_OWNERS = {
  users: ["users"],
  auth: ["sessions", "oauth_sessions", "login_codes", "telegram_auth_uses"],
  // The track row and the counts its writes keep (docs/decisions/0325): the staff's edits, the
  // processing leases, an upload's insert and the row's copy of its review pairs are tracks/ files.
  tracks: ["tracks", "track_counts", "user_track_counts"],
  uploads: ["upload_sessions", "track_versions", "upload_versions"],
  processing: ["track_analysis", "track_fingerprints", "fingerprint_segments", "version_offers"],
  review: [
    "track_decisions",
    "track_decision_history",
    "track_pair_facts",
    "track_listens",
    "track_votes",
    "track_comments",
    "track_assignments",
    "track_presence",
    "track_pair_reasons",
  ],
  intake: ["direction_intake"],
  leases: ["job_leases"],
  "decline-templates": ["decline_templates"],
  faq: ["faqs"],
  slider: ["slider_tiles"],
  // artist_channels: the VK community messages' consent and the artist's channels (issue 36).
  notifications: ["telegram_cards", "telegram_outbox", "artist_channels"],
  releases: ["releases", "release_history", "release_materials"],
  episodes: ["episodes", "episode_tracks", "episode_notices"],
  feedback: ["feedback_ratings"],
} as const satisfies Record<string, readonly string[]>;
