// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../components/testing/render-page.tsx";
import { client, read } from "./api.ts";
import { DEFAULT_BAN_MESSAGE } from "../../domain/ban.ts";
import { auth } from "./auth.ts";

const user = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  username: `u${id}`,
  is_admin: false,
  is_moderator: false,
  ...extra,
});
const bearer = (req: Request) => req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";

beforeEach(() => {
  localStorage.clear();
  auth.clear();
  auth.closeBanModal();
});
afterEach(() => vi.unstubAllGlobals());

describe("auth store", () => {
  it("restores a session only when both tokens are stored", () => {
    localStorage.setItem("accessToken", "a");
    auth.restore();
    expect(auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem("accessToken")).toBeNull();
    localStorage.setItem("accessToken", "a");
    localStorage.setItem("refreshToken", "r");
    auth.restore();
    expect(auth.isAuthenticated).toBe(true);
  });

  it("signs in with tokens: stores both and loads the user", async () => {
    const fetch = fakeFetch({
      "/api/auth/me": (
        req,
      ) => (bearer(req) === "acc1" ? { success: true, user: user(1) } : new Response(null, { status: 401 })),
    });
    vi.stubGlobal("fetch", fetch);
    localStorage.setItem("oauth_session_id", "s1");
    const u = await auth.signInWithTokens("acc1", "ref1");
    expect(u.id).toBe(1);
    expect(auth.user?.id).toBe(1);
    expect(localStorage.getItem("accessToken")).toBe("acc1");
    expect(localStorage.getItem("refreshToken")).toBe("ref1");
    expect(localStorage.getItem("oauth_session_id")).toBeNull();
  });

  it("a sign-in address for another account asks first and keeps the session unless agreed (decision 0202)", async () => {
    const me = (req: Request) =>
      bearer(req) === "accA"
        ? { success: true, user: user(1, { username: "a" }) }
        : bearer(req) === "accB"
        ? { success: true, user: user(2, { username: "b" }) }
        : new Response(null, { status: 401 });
    vi.stubGlobal("fetch", fakeFetch({ "/api/auth/me": me }));
    history.replaceState(null, "", "/profile?access_token=accB&refresh_token=refB&tab=1");
    await auth.signInWithTokens("accA", "refA");

    const kept = auth.acceptTokenLink("accB", "refB");
    // Out of the address at once, before anything is asked.
    expect(location.search).toBe("?tab=1");
    await vi.waitFor(() => expect(auth.getSnapshot().switchOffer).toEqual({ current: "a", next: "b" }));
    // Nothing of B is stored while the question is open.
    expect(localStorage.getItem("accessToken")).toBe("accA");
    auth.answerSwitch(false);
    expect(await kept).toBe("kept");
    expect(localStorage.getItem("accessToken")).toBe("accA");
    expect(auth.user?.id).toBe(1);

    const agreed = auth.acceptTokenLink("accB", "refB");
    await vi.waitFor(() => expect(auth.getSnapshot().switchOffer).not.toBeNull());
    auth.answerSwitch(true);
    expect(await agreed).toBe("signed-in");
    expect(localStorage.getItem("accessToken")).toBe("accB");
    expect(auth.user?.id).toBe(2);
    expect(auth.getSnapshot().switchOffer).toBeNull();

    // The same person's address is taken without a question; no session at all: the spec's rule.
    expect(await auth.acceptTokenLink("accB", "refB")).toBe("signed-in");
    auth.clear();
    expect(await auth.acceptTokenLink("accA", "refA")).toBe("signed-in");
    expect(auth.user?.id).toBe(1);
  });

  it("does not keep tokens that fail to load a user", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => Response.json({ success: false, error: "bad" }, { status: 401 }),
        "/api/auth/refresh": () => Response.json({ success: false }, { status: 401 }),
      }),
    );
    await expect(auth.signInWithTokens("x", "y")).rejects.toThrow();
    expect(auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem("accessToken")).toBeNull();
  });

  it("keeps a signed-in pair when the account fetch gets no answer (page left mid-request, network down)", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(auth.signInWithTokens("acc2", "ref2")).rejects.toThrow();
    expect(auth.isAuthenticated).toBe(true);
    expect(localStorage.getItem("accessToken")).toBe("acc2");
    expect(localStorage.getItem("refreshToken")).toBe("ref2");
  });

  it("keeps the pair on a server failure (5xx) and drops it when the server refuses it (400)", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({ "/api/auth/me": () => Response.json({ success: false, error: "x" }, { status: 503 }) }),
    );
    await expect(auth.signInWithTokens("acc3", "ref3")).rejects.toThrow();
    expect(localStorage.getItem("accessToken")).toBe("acc3");
    vi.stubGlobal(
      "fetch",
      fakeFetch({ "/api/auth/me": () => Response.json({ success: false, error: "x" }, { status: 400 }) }),
    );
    await expect(auth.signInWithTokens("acc4", "ref4")).rejects.toThrow();
    expect(auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem("accessToken")).toBeNull();
  });

  it("clears the session on 422 from the account fetch", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/auth/me": () => Response.json({ error: "bad" }, { status: 422 }) }));
    auth.setTokens("a", "r");
    await expect(auth.loadUser()).rejects.toThrow();
    expect(auth.isAuthenticated).toBe(false);
  });

  it("treats 403 on the account fetch as a ban: session cleared, ban message set", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () =>
          Response.json({ success: false, error: "Спам", ban_reason: "Спам", banned: true }, { status: 403 }),
      }),
    );
    auth.setTokens("a", "r");
    await expect(auth.loadUser()).rejects.toThrow();
    expect(auth.isAuthenticated).toBe(false);
    expect(auth.getSnapshot().banMessage).toBe("Спам");
    expect(localStorage.getItem("refreshToken")).toBeNull();
  });

  it("uses the default ban text when the server gives none", () => {
    auth.banned("");
    expect(auth.getSnapshot().banMessage).toBe(DEFAULT_BAN_MESSAGE);
  });

  it("refreshes once on a 401 and repeats the request; a failed refresh clears the session", async () => {
    let meCalls = 0;
    let refreshCalls = 0;
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": (req) => {
          meCalls++;
          return bearer(req) === "new-access" ? { success: true, user: user(2) } : new Response(null, { status: 401 });
        },
        "/api/auth/refresh": (req) => {
          refreshCalls++;
          return bearer(req) === "ref"
            ? { success: true, access_token: "new-access", refresh_token: "new-ref" }
            : new Response(null, { status: 401 });
        },
      }),
    );
    auth.setTokens("old-access", "ref");
    expect((await auth.loadUser())?.id).toBe(2);
    expect([meCalls, refreshCalls]).toEqual([2, 1]);
    expect(localStorage.getItem("refreshToken")).toBe("new-ref");

    // The rotated refresh token is now "new-ref"; make both fail.
    localStorage.setItem("accessToken", "stale");
    localStorage.setItem("refreshToken", "dead");
    meCalls = 0;
    refreshCalls = 0;
    await expect(read(client.auth.me.$get())).rejects.toThrow();
    expect([meCalls, refreshCalls]).toEqual([1, 1]);
    expect(auth.isAuthenticated).toBe(false);
  });

  it("an expired access token whose refresh gets no answer keeps the session and reports no response", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => new Response(null, { status: 401 }),
        "/api/auth/refresh": () => Promise.reject(new TypeError("Failed to fetch")),
      }),
    );
    auth.setTokens("stale", "ref");
    await expect(read(client.auth.me.$get())).rejects.toMatchObject({ status: 0 });
    expect(auth.isAuthenticated).toBe(true);
    expect(localStorage.getItem("refreshToken")).toBe("ref");
  });

  it("logs out: revokes on the server and clears local tokens", async () => {
    const fetch = fakeFetch({ "/api/auth/logout": () => ({ success: true }) });
    vi.stubGlobal("fetch", fetch);
    auth.setTokens("a", "r");
    await auth.logout();
    expect(fetch.calls).toEqual(["/api/auth/logout"]);
    expect(auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem("accessToken")).toBeNull();
  });

  it("never deletes a pair another tab is half-way through writing", () => {
    localStorage.setItem("accessToken", "a");
    globalThis.dispatchEvent(new StorageEvent("storage", { key: "accessToken", newValue: "a" }));
    expect(localStorage.getItem("accessToken")).toBe("a");
    expect(auth.isAuthenticated).toBe(false);
  });

  it("follows a sign-in made in another tab", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/auth/me": () => ({ success: true, user: user(3) }) }));
    localStorage.setItem("accessToken", "a");
    localStorage.setItem("refreshToken", "r");
    globalThis.dispatchEvent(new StorageEvent("storage", { key: "refreshToken", newValue: "r" }));
    expect(auth.isAuthenticated).toBe(true);
    await vi.waitFor(() => expect(auth.user?.id).toBe(3));
    localStorage.clear();
    globalThis.dispatchEvent(new StorageEvent("storage", { key: "accessToken", newValue: null }));
    expect(auth.isAuthenticated).toBe(false);
  });
});
