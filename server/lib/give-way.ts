/**
 * Lets other requests in while request bodies are read (issue 32, docs/decisions/0297). Deno hands
 * a buffered request body to its reader without returning to the event loop, so a body arriving
 * fast from a near client is read in one go and a new request (even `/api/health`) waits until it
 * has ended: 0.5–3 s for ten 45 MB uploads. Every body reader asks `giveWay()` between chunks;
 * once GIVE_WAY_MS have passed since the last turn, it answers one promise, shared by every reader,
 * that settles on the next timer turn: all of them wait for it, so the event loop turns and the
 * waiting requests are dispatched. Otherwise null (nothing to wait for: no cost per chunk).
 */

/** The longest reading bodies keeps the event loop before giving way. */
export const GIVE_WAY_MS = 5;

let lastTurn = 0;
let turn: Promise<void> | null = null;

export function giveWay(): Promise<void> | null {
  if (turn) return turn;
  if (performance.now() - lastTurn < GIVE_WAY_MS) return null;
  turn = new Promise((resolve) =>
    setTimeout(() => {
      turn = null;
      lastTurn = performance.now();
      resolve();
    }, 0)
  );
  return turn;
}
