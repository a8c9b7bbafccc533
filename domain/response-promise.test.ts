import { describe, expect, it } from "vitest";
import { autoDeclineDays, DAY_MS, isOverdue, promiseCutoffMs, respondBy } from "./response-promise.ts";

describe("the response promise", () => {
  const now = new Date("2026-03-20T12:00:00Z");

  it("is due at the upload plus the promise's days, and overdue strictly after it", () => {
    const upload = now.getTime() - 10 * DAY_MS;
    expect(respondBy(upload, 10).getTime()).toBe(now.getTime());
    expect(isOverdue(upload, now, 10)).toBe(false);
    expect(isOverdue(upload - 1, now, 10)).toBe(true);
    expect(promiseCutoffMs(now, 10)).toBe(upload);
  });

  it("reckons the default promise when no days are given, and declines after the grace", () => {
    expect(isOverdue(now.getTime() - 14 * DAY_MS, now)).toBe(false);
    expect(isOverdue(now.getTime() - 14 * DAY_MS - 1, now)).toBe(true);
    expect(autoDeclineDays({ promise_days: 14, auto_decline_after_days: 7 })).toBe(21);
  });
});
