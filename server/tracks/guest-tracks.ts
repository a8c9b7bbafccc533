import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { tracks } from "../../db/schema.ts";

/**
 * The tracks' side of deleting a user: their tracks stay, as guest tracks under `username`. A
 * statement, not run here, so the users service runs it in the same batch as the user's delete.
 */
export function keepTracksAsGuest(db: Db, userId: number, username: string) {
  return db.update(tracks).set({ guest_username: username }).where(eq(tracks.user_id, userId));
}
