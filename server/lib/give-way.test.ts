/**
 * giveWay (issue 32, docs/decisions/0297): body readers wait, all on one promise, for a turn of the
 * event loop once GIVE_WAY_MS have passed, and not otherwise.
 */
import { describe, expect, it } from "vitest";
import { GIVE_WAY_MS, giveWay } from "./give-way.ts";

describe("giveWay", () => {
  it("has every reader wait for one timer turn after GIVE_WAY_MS, and none within it", async () => {
    await new Promise((r) => setTimeout(r, GIVE_WAY_MS + 1));
    // A task queued before the readers ask (another request's): it runs before they go on.
    let otherRan = false;
    setTimeout(() => (otherRan = true), 0);
    const first = giveWay();
    const second = giveWay();
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    await first;
    expect(otherRan).toBe(true);
    // Just after a turn, reading goes on without waiting.
    expect(giveWay()).toBeNull();
  });
});
