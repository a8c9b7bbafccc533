// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../components/testing/render-page.tsx";
import { createAppRouter } from "../router.tsx";
import { NO_RESPONSE } from "./api.ts";
import { auth } from "./auth.ts";

/**
 * A guarded page whose account check gets no answer (spec 1 §8 "No response: No response from
 * server"): the person stays on the address, signed in, sees the message and can try again,
 * instead of being sent to /login and from there, still holding tokens, to /.
 */
const USERS: Record<string, Record<string, unknown>> = {
  "tok-user": { id: 1, username: "artist", first_name: "Арт", is_admin: false, is_moderator: false },
  "tok-admin": { id: 2, username: "admin", first_name: "Адм", is_admin: true, is_moderator: false },
};
let meAnswer: "down" | "5xx" | "ok" = "down";

function routes() {
  return fakeFetch({
    "/api/config": () => ({
      success: true,
      maintenance: false,
      providers: { vk: false, telegram: false },
      limits: { max_upload_file_mb: 50, max_upload_files: 20 },
    }),
    "/api/auth/me": (req) => {
      if (meAnswer === "down") throw new TypeError("Failed to fetch");
      if (meAnswer === "5xx") {
        return Response.json({ success: false, error: "Внутренняя ошибка сервера" }, { status: 503 });
      }
      const user = USERS[req.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""];
      return user
        ? { success: true, user, message: "ok" }
        : Response.json({ success: false, error: "x" }, { status: 401 });
    },
    "/api/tracks": () => ({ success: true, tracks: [] }),
    "/api/slider": () => ({ success: true, sliders: [] }),
    "/api/admin/dashboard": () => Response.json({ success: false, error: "нет" }, { status: 500 }),
  });
}

function renderApp(path: string) {
  history.replaceState(null, "", path);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter({ auth, queryClient });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function signedInAs(token: string) {
  auth.clear();
  localStorage.setItem("accessToken", token);
  localStorage.setItem("refreshToken", `r-${token}`);
  auth.restore();
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem("cookieConsent", "true");
  auth.clear();
  meAnswer = "down";
  vi.stubGlobal("fetch", routes());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  auth.clear();
});

describe("guarded pages when the account check gets no answer", () => {
  it("/profile shows No response from server, keeps the address and the session, and retries", async () => {
    signedInAs("tok-user");
    renderApp("/profile");
    const alert = await screen.findByRole("alert", {}, { timeout: 3000 });
    expect(alert.textContent).toContain(NO_RESPONSE);
    expect(NO_RESPONSE).toBe("No response from server");
    expect(location.pathname).toBe("/profile");
    expect(auth.isAuthenticated).toBe(true);
    expect(localStorage.getItem("accessToken")).toBe("tok-user");

    meAnswer = "ok";
    fireEvent.click(screen.getByRole("button", { name: "Повторить" }));
    await screen.findByText("@artist", {}, { timeout: 3000 });
    expect(location.pathname).toBe("/profile");
    expect(screen.queryByText(NO_RESPONSE)).toBeNull();
  });

  it("/admin says the same instead of going home", async () => {
    signedInAs("tok-admin");
    renderApp("/admin");
    const alert = await screen.findByRole("alert", {}, { timeout: 3000 });
    expect(alert.textContent).toContain(NO_RESPONSE);
    expect(location.pathname).toBe("/admin");
  });

  it("a failing server (5xx) is not a sign-out either: its error is shown on the page", async () => {
    meAnswer = "5xx";
    signedInAs("tok-user");
    renderApp("/processing");
    const alert = await screen.findByRole("alert", {}, { timeout: 3000 });
    expect(alert.textContent).toContain("Внутренняя ошибка сервера");
    expect(location.pathname).toBe("/processing");
    expect(auth.isAuthenticated).toBe(true);
  });

  it("a refused token still goes to /login", async () => {
    meAnswer = "ok";
    signedInAs("tok-unknown");
    renderApp("/profile");
    await waitFor(() => expect(location.pathname).toBe("/login"), { timeout: 3000 });
    expect(auth.isAuthenticated).toBe(false);
  });
});
