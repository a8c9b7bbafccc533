// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { DIRECTIONS } from "../../../domain/directions.ts";
import { INTAKE_DEFAULTS } from "../../../domain/intake-rules.ts";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { AdminIntakePage, INTAKE_TEXTS } from "./intake-page.tsx";

useSignedInTestSession();

const rule = (direction: string, over: Record<string, unknown> = {}) => ({
  direction,
  ...INTAKE_DEFAULTS,
  updated_at: null,
  updated_by: null,
  ...over,
});

/** The intake calls: the list, and a PUT per direction answered by `put` (default: saved as sent). */
function server(put?: (direction: string, body: Record<string, unknown>) => Response | undefined) {
  const rules = new Map(DIRECTIONS.map((d) => [d as string, rule(d)]));
  rules.set("radio_k_profit", rule("radio_k_profit", { cap_per_30_days: 3, tempo_mode: "refuse" }));
  const sent: { direction: string; method: string; body: Record<string, unknown> }[] = [];
  const routes: Record<string, (req: Request) => Promise<unknown>> = {
    "/api/admin/intake": () => Promise.resolve({ success: true, intake: [...rules.values()] }),
  };
  for (const d of DIRECTIONS) {
    routes[`/api/admin/intake/${d}`] = async (req) => {
      const body = await req.json();
      sent.push({ direction: d, method: req.method, body });
      const refused = put?.(d, body);
      if (refused) return refused;
      const saved = { ...rules.get(d)!, ...body, updated_at: "2026-11-25T20:00:00.000Z", updated_by: "admin" };
      rules.set(d, saved);
      return { success: true, rule: saved };
    };
  }
  vi.stubGlobal("fetch", fakeFetch(routes));
  return { sent };
}

const card = (direction: string) => screen.getByTestId(`intake-${direction}`);

describe("«Приём треков»", () => {
  it("shows one card per direction with its rule", async () => {
    server();
    renderPage("/admin/intake", AdminIntakePage);
    await settle();
    expect(screen.getByRole("heading", { level: 1, name: "Приём треков" })).toBeTruthy();
    expect(screen.getAllByTestId(/^intake-/).filter((e) => e.tagName === "FORM")).toHaveLength(DIRECTIONS.length);
    const radio = within(card("radio_k_profit"));
    expect(radio.getByRole("heading", { name: "Радио Профита" })).toBeTruthy();
    expect((radio.getByLabelText(INTAKE_TEXTS.cap) as HTMLInputElement).value).toBe("3");
    expect((radio.getByLabelText(INTAKE_TEXTS.tempoMin) as HTMLInputElement).value).toBe("160");
    expect((radio.getByLabelText(INTAKE_TEXTS.tempoMax) as HTMLInputElement).value).toBe("190");
    expect((radio.getByRole("radio", { name: "Отклонить" }) as HTMLInputElement).checked).toBe(true);
    expect((radio.getByLabelText(INTAKE_TEXTS.promise) as HTMLInputElement).value).toBe("14");
    expect((radio.getByLabelText(INTAKE_TEXTS.autoDecline) as HTMLInputElement).value).toBe("7");
    expect((radio.getByRole("checkbox", { name: INTAKE_TEXTS.acceptTracks }) as HTMLInputElement).checked).toBe(true);
    expect(radio.getByTestId("intake-state").textContent).toBe("Приём открыт");
    // Nothing changed yet: nothing to save.
    expect((radio.getByRole("button", { name: "Сохранить" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("pauses a direction with a message: one PUT for that direction, every writable field, then «Пауза»", async () => {
    const { sent } = server();
    renderPage("/admin/intake", AdminIntakePage);
    await settle();
    const koster = within(card("label_koster"));
    fireEvent.click(koster.getByRole("checkbox", { name: INTAKE_TEXTS.acceptTracks }));
    fireEvent.change(koster.getByLabelText(INTAKE_TEXTS.pauseMessage), {
      target: { value: "  Лейбл на каникулах до января  " },
    });
    fireEvent.change(koster.getByLabelText(INTAKE_TEXTS.cooldown), { target: { value: "48" } });
    fireEvent.change(koster.getByLabelText(INTAKE_TEXTS.staffChat), { target: { value: "-1001234567890" } });
    fireEvent.click(koster.getByRole("button", { name: "Сохранить" }));
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ direction: "label_koster", method: "PUT" });
    expect(sent[0].body).toEqual({
      open: false,
      pause_message: "Лейбл на каникулах до января",
      cap_per_30_days: null,
      cooldown_hours: 48,
      tempo_min: 160,
      tempo_max: 190,
      tempo_mode: "flag",
      promise_days: 14,
      auto_decline_after_days: 7,
      late_message: null,
      staff_chat_id: "-1001234567890",
      // Issue 34: a label direction's release desk settings go with it.
      catalogue_prefix: null,
      catalogue_next: 1,
      release_extended: false,
      release_instrumental: false,
    });
    expect(koster.getByRole("status").textContent).toBe(INTAKE_TEXTS.saved);
    expect(koster.getByTestId("intake-state").textContent).toBe("Пауза");
    expect(koster.getByText(/Изменено: .*, @admin/)).toBeTruthy();
    // The other cards are untouched.
    expect(within(card("label_neuropunk")).getByTestId("intake-state").textContent).toBe("Приём открыт");
  });

  it("shows the server's refusal on the card that was saved, and keeps what was typed", async () => {
    const { sent } = server((_d, body) =>
      body.tempo_min === 200
        ? Response.json({ success: false, error: "Нижняя граница темпа должна быть меньше верхней" }, { status: 400 })
        : undefined
    );
    renderPage("/admin/intake", AdminIntakePage);
    await settle();
    const show = within(card("show_neurogon"));
    fireEvent.change(show.getByLabelText(INTAKE_TEXTS.tempoMin), { target: { value: "200" } });
    fireEvent.click(show.getByRole("button", { name: "Сохранить" }));
    await settle();
    expect(sent).toHaveLength(1);
    expect(show.getByRole("alert").textContent).toBe("Нижняя граница темпа должна быть меньше верхней");
    expect((show.getByLabelText(INTAKE_TEXTS.tempoMin) as HTMLInputElement).value).toBe("200");
    expect(within(card("label_koster")).queryByRole("alert")).toBeNull();
  });

  it("pausing moves the focus to the pause message", async () => {
    server();
    renderPage("/admin/intake", AdminIntakePage);
    await settle();
    const pod = within(card("podcast_koster"));
    fireEvent.click(pod.getByRole("checkbox", { name: INTAKE_TEXTS.acceptTracks }));
    await settle();
    expect(document.activeElement).toBe(pod.getByLabelText(INTAKE_TEXTS.pauseMessage));
  });
});
