// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme, parseLaunchHash, telegramBridge } from "./telegram-bridge.ts";

/** Issue 36: the Mini App's bridge to Telegram's web view, without Telegram's script. */

const w = globalThis as unknown as Record<string, unknown>;
afterEach(() => {
  delete w.TelegramWebviewProxy;
  delete w.Telegram;
});

describe("parseLaunchHash", () => {
  it("reads the launch data and the theme from the address's fragment", () => {
    const initData = "query_id=Q&user=%7B%22id%22%3A1%7D&auth_date=1&hash=ab";
    const hash = "#" + new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: "8.0",
      tgWebAppThemeParams: JSON.stringify({ bg_color: "#101010" }),
    });
    expect(parseLaunchHash(hash)).toEqual({ initData, theme: { bg_color: "#101010" } });
    expect(parseLaunchHash("#tgWebAppThemeParams=nonsense")).toEqual({ initData: null, theme: null });
    expect(parseLaunchHash("")).toEqual({ initData: null, theme: null });
  });
});

describe("applyTheme", () => {
  it("takes only #rrggbb colours, and takes them off again", () => {
    const off = applyTheme({ bg_color: "#17212b", text_color: "red; background: url(x)" });
    const style = document.documentElement.style;
    expect(style.getPropertyValue("--bg")).toBe("#17212b");
    expect(style.getPropertyValue("--text")).toBe("");
    off();
    expect(style.getPropertyValue("--bg")).toBe("");
  });
});

describe("telegramBridge through the web view's events", () => {
  it("is null outside Telegram", () => {
    expect(telegramBridge()).toBeNull();
  });

  it("sets the buttons up, hears their presses, and asks for write access", () => {
    const posted: Array<[string, unknown]> = [];
    w.TelegramWebviewProxy = {
      postEvent: (type: string, data: string) => posted.push([type, data ? JSON.parse(data) : null]),
    };
    const bridge = telegramBridge()!;
    bridge.ready();
    expect(posted.map(([t]) => t)).toEqual(["web_app_ready", "web_app_expand"]);
    const pressed = vi.fn();
    const off = bridge.mainButton("Отправить трек", pressed);
    expect(posted.at(-1)).toEqual(["web_app_setup_main_button", {
      is_visible: true,
      is_active: true,
      text: "Отправить трек",
    }]);
    const receive = (w.Telegram as { WebView: { receiveEvent(t: string, d?: unknown): void } }).WebView.receiveEvent;
    receive("main_button_pressed");
    expect(pressed).toHaveBeenCalledTimes(1);
    off();
    receive("main_button_pressed");
    expect(pressed).toHaveBeenCalledTimes(1);
    expect(posted.at(-1)).toEqual(["web_app_setup_main_button", { is_visible: false }]);

    const back = vi.fn();
    bridge.backButton(back);
    expect(posted.at(-1)).toEqual(["web_app_setup_back_button", { is_visible: true }]);
    receive("back_button_pressed");
    expect(back).toHaveBeenCalledTimes(1);

    const done = vi.fn();
    bridge.requestWriteAccess!(done);
    expect(posted.at(-1)?.[0]).toBe("web_app_request_write_access");
    receive("write_access_requested", { status: "allowed" });
    expect(done).toHaveBeenCalledWith(true);
  });

  it("prefers window.Telegram.WebApp when the page has one", () => {
    const shown = vi.fn();
    w.Telegram = {
      WebApp: {
        MainButton: { show: shown, hide: vi.fn(), onClick: vi.fn(), offClick: vi.fn(), setText: vi.fn() },
        BackButton: { show: vi.fn(), hide: vi.fn(), onClick: vi.fn(), offClick: vi.fn() },
      },
    };
    w.TelegramWebviewProxy = { postEvent: vi.fn() };
    telegramBridge()!.mainButton("Отправить трек", () => {});
    expect(shown).toHaveBeenCalled();
    expect((w.TelegramWebviewProxy as { postEvent: ReturnType<typeof vi.fn> }).postEvent).not.toHaveBeenCalled();
  });
});
