import { type Direction, DIRECTION_LABELS } from "../../../domain/directions.ts";
import { REVIEW_STATUS_LABELS, type ReviewStatus, type TemplateOutcome } from "../../../domain/review.ts";
import { inScope, scopeOf } from "../../../domain/scope.ts";
import { VOTE_EMOJI, type VoteValue } from "../../../domain/votes.ts";
import type { AppDeps } from "../../deps.ts";
import type { UsersService } from "../../users/service.ts";
import type { ReviewService, TracksService } from "../../track-services.ts";
import type { DeclineTemplatesService } from "../../decline-templates/service.ts";
import { ApiError } from "../../lib/http-error.ts";
import { type CallbackAction, decodeCallback } from "../telegram-desk/callback-data.ts";
import type { InlineKeyboard } from "../telegram-desk/card-text.ts";
import { type BotCaller, chatIdValue } from "./bot-call.ts";

/**
 * A press of a staff card's button (issue 27, docs/decisions/0263). Every press is answered with
 * `answerCallbackQuery`, whatever happens. A press decides or votes only when its data carries our
 * signature, it names a card we sent to the chat it came from and the message pressed is that
 * card's (else it is answered as stale), and the presser's Telegram id is
 * linked to a staff user (not banned) whose categories cover the card's direction (domain/scope.ts,
 * the one rule); it then goes through the same decision and vote calls as the web
 * (`ctx.review.decide` / `vote`: revision check, history, the artist's held message). A pair
 * already accepted or declined is left alone, and the answer says so.
 */

/** What the presses need of a card (its row is the cards' module's, server/notifications/telegram-desk/). */
export interface PressedCard {
  id: number;
  track_id: number;
  direction: Direction;
  chat_id: string;
  message_id: number | null;
}

/** The callback query of an update, as much of it as is read. */
export interface CallbackQuery {
  id: string;
  from: { id: number };
  message?: { message_id: number; chat: { id: number } };
  data?: string;
}

export interface PressDeps {
  ctx: Pick<AppDeps, "logger" | "config"> & {
    users: Pick<UsersService, "byIdentity">;
    tracks: Pick<TracksService, "get">;
    review: Pick<ReviewService, "vote" | "decide">;
    declineTemplates: Pick<DeclineTemplatesService, "templateOf">;
  };
  bot: BotCaller;
  /** The signing secret of the buttons' data (telegram-desk/callback-data.ts `callbackSecret`). */
  secret: string;
  card(id: number): Promise<PressedCard | null>;
  /**
   * The card's buttons with the direction's decline templates as a second row (the cards' module),
   * or null when there are none.
   */
  declineMarkup(card: PressedCard): Promise<InlineKeyboard | null>;
  /** Records the keyboard the press handler put on the card itself. */
  shownMarkup(card: PressedCard, markup: InlineKeyboard): Promise<void>;
}

/** The answers a presser sees (Telegram shows them as a short notice; at most 200 characters). */
export const PRESS_TEXTS = {
  forged: "Кнопка недействительна",
  noCard: "Карточка не найдена",
  stale: "Кнопка устарела: нажмите кнопку на самой карточке трека. Ничего не изменено",
  notLinked: "Нет прав: этот аккаунт Telegram не привязан к сотруднику сайта",
  outside: (d: Direction) => `Нет прав: направление «${DIRECTION_LABELS[d]}» вне ваших категорий`,
  already: (s: ReviewStatus, by: string | null) =>
    `Уже решено: ${REVIEW_STATUS_LABELS[s]}${by ? ` (${by})` : ""}. Ничего не изменено`,
  decided: (s: TemplateOutcome, holdS: number) =>
    `${REVIEW_STATUS_LABELS[s]}.` +
    (holdS > 0 ? ` Артисту сообщим через ${holdS} с; отменить можно на сайте` : ""),
  chooseTemplate: "Выберите сообщение для отказа",
  noTemplates: "Нет готовых сообщений для отказа: отклоните трек на сайте",
  voted: (v: VoteValue) => `Ваш голос: ${VOTE_EMOJI[v]}`,
  changed: "Решение уже изменили: карточка обновится",
  trackGone: "Трек не найден",
  failed: "Не удалось: попробуйте ещё раз",
} as const;

const FINAL: readonly ReviewStatus[] = ["accepted", "declined"];

/** What a press did; the answer's text is `text`. Exposed for tests and the log. */
export interface PressResult {
  text: string;
  outcome: "refused" | "stale" | "decided" | "voted" | "templates" | "unchanged" | "failed";
}

export function createPressHandler(deps: PressDeps) {
  const { ctx, bot } = deps;
  const holdS = ctx.config.decisionNotifyHoldS;

  async function run(q: CallbackQuery): Promise<PressResult> {
    const refused = (text: string): PressResult => ({ text, outcome: "refused" });
    const decoded = decodeCallback(deps.secret, q.data);
    if (!decoded) return refused(PRESS_TEXTS.forged);
    const card = await deps.card(decoded.cardId);
    // A card is pressed in the chat it was sent to; signed data shown anywhere else decides nothing.
    if (!card || !q.message || String(q.message.chat.id) !== card.chat_id) return refused(PRESS_TEXTS.noCard);
    // And on the card's own message (issue 32): the data of one card on another message of the chat
    // (a copy, a forward, an old card) would decide and edit a card that was not pressed.
    if (card.message_id === null || q.message.message_id !== card.message_id) {
      return { text: PRESS_TEXTS.stale, outcome: "stale" };
    }
    const user = await ctx.users.byIdentity("telegram", String(q.from.id));
    if (!user || user.is_banned) return refused(PRESS_TEXTS.notLinked);
    if (!inScope(card.direction, scopeOf(user))) return refused(PRESS_TEXTS.outside(card.direction));
    return await act(user, card, decoded.action);
  }

  async function act(
    user: NonNullable<Awaited<ReturnType<PressDeps["ctx"]["users"]["byIdentity"]>>>,
    card: PressedCard,
    action: CallbackAction,
  ): Promise<PressResult> {
    if (action === "v1" || action === "v0" || action === "v-1") {
      const vote = Number(action.slice(1)) as VoteValue;
      await ctx.review.vote(user, card.track_id, card.direction, { vote, word: null });
      return { text: PRESS_TEXTS.voted(vote), outcome: "voted" };
    }
    // The pair as the presser sees it now: its state and the revision the decision is made from.
    const track = await ctx.tracks.get(user, card.track_id);
    const pair = track.decisions.find((d) => d.direction === card.direction);
    if (!pair) return { text: PRESS_TEXTS.trackGone, outcome: "refused" };
    const wanted: TemplateOutcome = action === "a" ? "accepted" : action === "s" ? "shortlisted" : "declined";
    if (FINAL.includes(pair.status) || pair.status === wanted) {
      const by = pair.decided_by ? `@${pair.decided_by.username}` : null;
      return { text: PRESS_TEXTS.already(pair.status, by), outcome: "unchanged" };
    }
    if (action === "x") {
      const markup = await deps.declineMarkup(card);
      if (!markup || card.message_id === null) return { text: PRESS_TEXTS.noTemplates, outcome: "unchanged" };
      const edited = await bot("editMessageReplyMarkup", {
        chat_id: chatIdValue(card.chat_id),
        message_id: card.message_id,
        reply_markup: markup,
      });
      // Pressed again while the row is shown: Telegram refuses an edit that changes nothing.
      if (!edited.ok && !/message is not modified/i.test(edited.description ?? "")) {
        ctx.logger.warn("telegram card: templates row not shown", { card: card.id, error: edited.description });
        return { text: PRESS_TEXTS.failed, outcome: "failed" };
      }
      await deps.shownMarkup(card, markup);
      return { text: PRESS_TEXTS.chooseTemplate, outcome: "templates" };
    }
    const templateId = action.startsWith("t") ? Number(action.slice(1)) : undefined;
    await ctx.review.decide(
      user,
      card.track_id,
      card.direction,
      // Note and message left as they are (undefined); the artist gets the template's text or the default one.
      { revision: pair.revision, status: wanted, template_id: templateId, note: undefined, message: undefined },
      ctx.declineTemplates.templateOf,
    );
    return { text: PRESS_TEXTS.decided(wanted, holdS), outcome: "decided" };
  }

  /** Handles one press and answers it; never throws. */
  return async function handlePress(q: CallbackQuery): Promise<PressResult> {
    let result: PressResult;
    try {
      result = await run(q);
    } catch (err) {
      if (err instanceof ApiError) {
        // 409: someone changed the pair between the read and the write; 404: the track is gone or
        // out of sight; 400/403: a template of another outcome, a direction the track no longer has.
        const text = err.status === 409
          ? PRESS_TEXTS.changed
          : err.status === 404
          ? PRESS_TEXTS.trackGone
          : err.message.slice(0, 200);
        result = { text, outcome: err.status === 409 ? "unchanged" : "refused" };
      } else {
        ctx.logger.error("telegram press failed", { err });
        result = { text: PRESS_TEXTS.failed, outcome: "failed" };
      }
    }
    const answered = await bot("answerCallbackQuery", { callback_query_id: q.id, text: result.text });
    if (!answered.ok) ctx.logger.warn("telegram press not answered", { error: answered.description });
    return result;
  };
}

export type PressHandler = ReturnType<typeof createPressHandler>;
