// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../components/testing/render-page.tsx";
import { client, read } from "./api.ts";
import { auth } from "./auth.ts";

beforeEach(() => {
  localStorage.clear();
  auth.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe("session renewal", () => {
  it("keeps the session when the server says too many renewals (429): that is no refusal", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => new Response(null, { status: 401 }),
        "/api/auth/refresh": () =>
          Response.json(
            { success: false, error: "Слишком много попыток входа. Подождите минуту и попробуйте снова." },
            {
              status: 429,
              headers: { "Retry-After": "30" },
            },
          ),
      }),
    );
    auth.setTokens("stale", "ref");
    await expect(read(client.auth.me.$get())).rejects.toMatchObject({ status: 0 });
    expect(auth.isAuthenticated).toBe(true);
    expect(localStorage.getItem("refreshToken")).toBe("ref");
  });
});
