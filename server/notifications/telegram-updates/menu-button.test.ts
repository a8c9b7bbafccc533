import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../config.ts";
import { createLogger } from "../../lib/logger.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { TEST_BOT_TOKEN } from "../../testing/telegram.ts";
import { MINI_APP_BUTTON_TEXT, setMiniAppMenuButton } from "./menu-button.ts";

/** Issue 36: the bot's menu button opens the Mini App at PUBLIC_URL/tg, set once at start. */

let bot: TelegramBotDouble;
beforeAll(async () => {
  bot = await startTelegramBotDouble();
});
afterAll(() => bot.stop());

const deps = (env: Record<string, string>) => ({
  config: parseConfig({ DATA_DIR: "/tmp/unused", TELEGRAM_BOT_API_URL: bot.url, ...env }),
  fetch: globalThis.fetch.bind(globalThis),
  logger: createLogger("silent"),
});

describe("setMiniAppMenuButton", () => {
  it("sets a web_app button to PUBLIC_URL/tg with an https PUBLIC_URL and a bot token", async () => {
    const before = bot.calls.length;
    expect(
      await setMiniAppMenuButton(deps({ PUBLIC_URL: "https://demo.example/", TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })),
    )
      .toBe(true);
    const made = bot.calls.slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      method: "setChatMenuButton",
      answer: "ok",
      body: {
        menu_button: { type: "web_app", text: MINI_APP_BUTTON_TEXT, web_app: { url: "https://demo.example/tg" } },
      },
    });
  });

  it("makes no call with an http PUBLIC_URL or without a bot token", async () => {
    const before = bot.calls.length;
    expect(
      await setMiniAppMenuButton(deps({ PUBLIC_URL: "http://localhost:8000", TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })),
    )
      .toBe(false);
    expect(await setMiniAppMenuButton(deps({ PUBLIC_URL: "https://demo.example" }))).toBe(false);
    expect(bot.calls.length).toBe(before);
  });

  it("the double refuses what Telegram refuses: an http address in a web_app button", async () => {
    const res = await fetch(`${bot.url}/bot${bot.token}/setChatMenuButton`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ menu_button: { type: "web_app", text: "x", web_app: { url: "http://a.test/tg" } } }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).ok).toBe(false);
  });
});
