import { describe, expect, it } from "vitest";
import {
  CALLBACK_DATA_MAX_BYTES,
  type CallbackAction,
  callbackSecret,
  decodeCallback,
  encodeCallback,
} from "./callback-data.ts";

const secret = callbackSecret("a-jwt-secret-of-at-least-32-characters!!");

describe("telegram desk callback data", () => {
  const actions: CallbackAction[] = ["a", "s", "x", "t7", "t123456789012", "v1", "v0", "v-1"];

  it("round-trips every action and stays within Telegram's 64 bytes", () => {
    for (const action of actions) {
      for (const cardId of [1, 42, Number.MAX_SAFE_INTEGER]) {
        const data = encodeCallback(secret, cardId, action);
        expect(new TextEncoder().encode(data).length).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
        expect(decodeCallback(secret, data)).toEqual({ cardId, action });
      }
    }
  });

  it("refuses data signed with another secret", () => {
    const data = encodeCallback(callbackSecret("another-secret-another-secret-another"), 5, "a");
    expect(decodeCallback(secret, data)).toBeNull();
  });

  it("refuses a changed card id or action (the signature no longer matches)", () => {
    const data = encodeCallback(secret, 5, "x");
    const [, , sig] = data.split(".");
    expect(decodeCallback(secret, `6.x.${sig}`)).toBeNull();
    expect(decodeCallback(secret, `5.a.${sig}`)).toBeNull();
    expect(decodeCallback(secret, `5.t1.${sig}`)).toBeNull();
  });

  it("refuses malformed data", () => {
    for (const data of ["", "5.a", "5.a.", "0.a.AAAAAAAAAAAAAAAA", "5.q.AAAAAAAAAAAAAAAA", "x".repeat(65), null, 5]) {
      expect(decodeCallback(secret, data)).toBeNull();
    }
  });

  it("will not encode an impossible id or action", () => {
    expect(() => encodeCallback(secret, 0, "a")).toThrow();
    expect(() => encodeCallback(secret, 1.5, "a")).toThrow();
    expect(() => encodeCallback(secret, 1, "v2" as CallbackAction)).toThrow();
    expect(() => encodeCallback(secret, 1, "t0" as CallbackAction)).toThrow();
  });

  it("derives a secret distinct from the one it comes from", () => {
    expect(callbackSecret("base")).not.toBe("base");
    expect(callbackSecret("base")).toBe(callbackSecret("base"));
    expect(callbackSecret("base")).not.toBe(callbackSecret("base2"));
  });
});
