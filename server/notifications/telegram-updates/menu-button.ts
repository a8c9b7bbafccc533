import type { Config } from "../../config.ts";
import type { Logger } from "../../lib/logger.ts";
import { botCaller } from "./bot-call.ts";

/** The menu button's text in the bot's chat (issue 36). */
export const MINI_APP_BUTTON_TEXT = "Мои треки";

/** The Mini App's address: PUBLIC_URL/tg. */
export const miniAppUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, "")}/tg`;

/**
 * With an https PUBLIC_URL and a bot token, sets the bot's default menu button to open the Mini App
 * (`setChatMenuButton` with a `web_app` button; Telegram opens only https addresses in it), once at
 * start, through the one Bot API call path. Never throws; a refusal is logged without the token.
 * Answers whether the button was set (false when not configured or refused).
 */
export async function setMiniAppMenuButton(
  deps: { config: Pick<Config, "telegram" | "publicUrl">; fetch: typeof fetch; logger: Logger },
): Promise<boolean> {
  const bot = deps.config.telegram;
  if (!bot || !deps.config.publicUrl.startsWith("https://")) return false;
  const call = botCaller(bot, deps.fetch);
  const answer = await call("setChatMenuButton", {
    menu_button: { type: "web_app", text: MINI_APP_BUTTON_TEXT, web_app: { url: miniAppUrl(deps.config.publicUrl) } },
  });
  if (answer.ok) deps.logger.info("telegram menu button set to the Mini App");
  else deps.logger.warn("telegram setChatMenuButton failed", { error: answer.description });
  return answer.ok;
}
