import { describe, expect, it } from "vitest";
import { readArrival } from "./arrival.ts";

describe("what an address brings to the sign-in pages", () => {
  it("finds tgAuthResult in the query or in the fragment", () => {
    expect(readArrival("?tgAuthResult=eyJpZCI6MX0", "")).toEqual({ kind: "telegram", result: "eyJpZCI6MX0" });
    expect(readArrival("", "#tgAuthResult=eyJpZCI6Mn0")).toEqual({ kind: "telegram", result: "eyJpZCI6Mn0" });
    expect(readArrival("", "#tgAuthResult=")).toEqual({ kind: "telegram", result: "" });
  });

  it("needs both tokens", () => {
    expect(readArrival("?access_token=a&refresh_token=r", "")).toEqual({ kind: "tokens", access: "a", refresh: "r" });
    expect(readArrival("?access_token=a", "")).toEqual({ kind: "none" });
  });

  it("reads the VK callback's one-time login code", () => {
    expect(readArrival("?login_code=abc", "")).toEqual({ kind: "login-code", code: "abc" });
    expect(readArrival("?login_code=", "")).toEqual({ kind: "none" });
  });

  it("reads VK's code, state and device_id, and VK's error", () => {
    expect(readArrival("?code=c1&state=s1&device_id=d1&type=code_v2", "")).toEqual({
      kind: "vk-code",
      code: "c1",
      state: "s1",
      deviceId: "d1",
    });
    expect(readArrival("?error=access_denied&state=s", "")).toEqual({ kind: "vk-error", error: "access_denied" });
  });

  it("puts a ban first", () => {
    expect(
      readArrival(
        "?ban_message=%D0%97%D0%B0%D0%B1%D0%BB%D0%BE%D0%BA%D0%B8%D1%80%D0%BE%D0%B2%D0%B0%D0%BD&access_token=a&refresh_token=b",
        "",
      ),
    )
      .toEqual({ kind: "ban", message: "Заблокирован" });
    expect(readArrival("?ban_message=", "")).toEqual({ kind: "ban", message: null });
  });
});
