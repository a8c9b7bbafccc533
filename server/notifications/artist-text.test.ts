/**
 * A message to an artist that is not about a decision (the release and episode desks' messages):
 * written once per key, replaced while waiting by a newer one about the same subject, sent as the
 * text given, and never written for an artist without Telegram.
 */
import { isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { telegramOutbox } from "../../db/schema.ts";
import { createUser } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { SUPERSEDED_BY_NEWER } from "./outbox.ts";

let bot: TelegramBotDouble;
let f: StaffFixture;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  f = await staffFixture({ env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url } });
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  bot.calls.length = 0;
  await f.t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
});

const outbox = () => f.t.ctx.notifications.outbox;

describe("artist texts in the outbox", () => {
  it("sends the text once per key, and a newer one about the same subject replaces a waiting one", async () => {
    const artist = await createUser(f.t.ctx.db, { telegram_id: "700100200" });
    expect(await outbox().enqueueArtistText({ key: "release:7:reminder:1", userId: artist.id, text: "Первое" }))
      .toBe(true);
    expect(await outbox().enqueueArtistText({ key: "release:7:reminder:1", userId: artist.id, text: "Снова" }))
      .toBe(false);
    expect(await outbox().enqueueArtistText({ key: "release:7:reminder:2", userId: artist.id, text: "Второе" }))
      .toBe(true);
    const rows = await f.t.ctx.db.select().from(telegramOutbox).orderBy(telegramOutbox.id);
    expect(rows.map((r) => [r.key, r.status, r.last_error])).toEqual([
      ["release:7:reminder:1", "superseded", SUPERSEDED_BY_NEWER],
      ["release:7:reminder:2", "pending", null],
    ]);
    expect(await f.t.ctx.notifications.sender.runOnce()).toMatchObject({ sent: 1 });
    expect(bot.delivered.map((c) => [String(c.body.chat_id), c.body.text])).toEqual([["700100200", "Второе"]]);
  });

  it("writes nothing for an artist without Telegram, and refuses a decision's key", async () => {
    const artist = await createUser(f.t.ctx.db, { telegram_id: null });
    expect(await outbox().enqueueArtistText({ key: "episode:3:aired:1", userId: artist.id, text: "x" })).toBe(false);
    expect(() => outbox().artistTextStatements({ key: "decision:1:label_koster:1", userId: artist.id, text: "x" }))
      .toThrow();
  });
});
