import { describe, expect, it } from "vitest";
import { queueLine } from "./queue-line.ts";

describe("queueLine (issue 36)", () => {
  const base = {
    direction: "podcast_koster",
    respond_by: "2026-12-13T09:00:00.000Z",
    queue_position: 14,
    queue_length: 120,
    expected_by: "2026-12-12T09:00:00.000Z",
    heard_by: 2,
  };
  it("reads as the issue shows it", () => {
    expect(queueLine(base)).toBe(
      "№14 из 120 в очереди Подкаст Костёр · ответ ожидается около 12.12 (обещали до 13.12) · послушали 2",
    );
  });
  it("leaves out the date without a pace, the listeners when nobody heard it; nothing on a decided pair", () => {
    expect(queueLine({ ...base, expected_by: null, heard_by: 0 })).toBe("№14 из 120 в очереди Подкаст Костёр");
    expect(queueLine({ ...base, queue_position: null, queue_length: null })).toBeNull();
  });
});
