import { describe, expect, it } from "vitest";
import {
  artistReviewStatus,
  daysSince,
  decisionInputSchema,
  declineTemplateSchemas,
  isAwaitingDecision,
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  REVIEW_TEXTS,
} from "./review.ts";
import { isOverdue } from "./response-promise.ts";

const DAY = 86_400_000;

describe("review states", () => {
  it("labels the five staff states in Russian and folds them for the artist", () => {
    expect(REVIEW_STATUSES.map((s) => REVIEW_STATUS_LABELS[s])).toEqual([
      "Новый",
      "Прослушан",
      "В шорт-листе",
      "Принят",
      "Отклонён",
    ]);
    expect(REVIEW_STATUSES.map(artistReviewStatus)).toEqual([
      "in_review",
      "listened",
      "listened",
      "accepted",
      "declined",
    ]);
  });

  it("waits while new or listened, and is overdue after more than 14 days", () => {
    expect(REVIEW_STATUSES.filter(isAwaitingDecision)).toEqual(["new", "listened"]);
    const now = new Date("2026-03-20T12:00:00Z");
    expect(isOverdue(new Date(now.getTime() - 14 * DAY), now)).toBe(false);
    expect(isOverdue(new Date(now.getTime() - 14 * DAY - 1), now)).toBe(true);
    expect(daysSince(new Date(now.getTime() - 14 * DAY - 1), now)).toBe(14);
    expect(daysSince(new Date(now.getTime() + DAY), now)).toBe(0);
    expect(daysSince("2026-03-01T12:00:00.000Z", now)).toBe(19);
  });
});

describe("decisionInputSchema", () => {
  const parse = (v: unknown) => decisionInputSchema().safeParse(v);
  const error = (v: unknown) => {
    const r = parse(v);
    return r.success ? null : r.error.issues[0].message;
  };

  it("takes a known status or none (a note saved alone keeps the status) and trims the texts, blank meaning none", () => {
    expect(parse({ status: "declined", note: "  a ", message: " " }).data).toEqual({
      status: "declined",
      note: "a",
      message: null,
    });
    expect(parse({ status: "new" }).data).toEqual({ status: "new" });
    expect(error({ status: "in_review" })).toBe(REVIEW_TEXTS.unknownStatus);
    expect(parse({ note: " a " }).data).toEqual({ note: "a" });
  });

  it("takes a template only with an outcome (accept, shortlist, decline), and not with a message", () => {
    expect(parse({ status: "declined", template_id: "7" }).data).toMatchObject({ template_id: 7 });
    expect(parse({ status: "declined", template_id: null, message: "x" }).data).toMatchObject({ message: "x" });
    expect(error({ status: "declined", template_id: 7, message: "x" })).toBe(REVIEW_TEXTS.messageAndTemplate);
    expect(parse({ status: "declined", template_id: 7, message: "" }).success).toBe(true);
    // Which outcome the template has is the service's check (templateOtherOutcome, decision 0224).
    expect(parse({ status: "accepted", template_id: 7 }).success).toBe(true);
    expect(parse({ status: "shortlisted", template_id: 7 }).success).toBe(true);
    expect(error({ status: "listened", template_id: 7 })).toBe(REVIEW_TEXTS.templateOnlyForDecline);
    expect(error({ template_id: 7 })).toBe(REVIEW_TEXTS.templateOnlyForDecline);
    for (const bad of [0, -3, 1.5, "x", "", [], {}]) {
      expect(error({ status: "declined", template_id: bad })).toBe(REVIEW_TEXTS.templateNotFound);
    }
  });

  it("holds the note and message to 1,000 characters as a person counts them", () => {
    expect(parse({ status: "accepted", note: "😀".repeat(1000) }).success).toBe(true);
    expect(error({ status: "accepted", note: "😀".repeat(1001) })).toBe(REVIEW_TEXTS.noteTooLong);
    expect(error({ status: "accepted", message: "a".repeat(1001) })).toBe(REVIEW_TEXTS.messageTooLong);
  });
});

describe("declineTemplateSchemas", () => {
  it("needs both fields to create and either to update", () => {
    const { create, update } = declineTemplateSchemas();
    // Left out, the outcome is a decline: scripts written before outcomes keep working (0224).
    expect(create.safeParse({ title: " T ", text: " x " }).data).toEqual({
      title: "T",
      text: "x",
      outcome: "declined",
    });
    expect(create.safeParse({ title: "T", text: "x", outcome: "accepted" }).data?.outcome).toBe("accepted");
    expect(create.safeParse({ title: "T", text: "x", outcome: "listened" }).error?.issues[0].message)
      .toBe(REVIEW_TEXTS.unknownOutcome);
    expect(create.safeParse({ title: "T", text: "{artist}, {title}: {direction}" }).success).toBe(true);
    expect(create.safeParse({ title: "T", text: "{artsit}" }).error?.issues[0].message)
      .toBe(REVIEW_TEXTS.unknownPlaceholder("{artsit}"));
    expect(create.safeParse({ title: "T" }).success).toBe(false);
    expect(update.safeParse({}).data).toEqual({});
    expect(update.safeParse({ outcome: "shortlisted" }).data).toEqual({ outcome: "shortlisted" });
    expect(update.safeParse({ title: "" }).error?.issues[0].message).toBe(REVIEW_TEXTS.templateTitleRequired);
  });
});
