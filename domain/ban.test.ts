import { describe, expect, it } from "vitest";
import { banMessage, DEFAULT_BAN_MESSAGE, isBanMessage } from "./ban.ts";
import { BAN_TEXTS, banRefusal } from "./ban-rules.ts";

describe("ban", () => {
  it("tells a banned person the admin's reason, else the default text of spec 1 §8", () => {
    expect(DEFAULT_BAN_MESSAGE).toBe("Ваш аккаунт заблокирован за нарушение правил сервиса");
    expect(banMessage("Спам в комментариях ")).toBe("Спам в комментариях");
    for (const none of [null, undefined, "", "   "]) expect(banMessage(none)).toBe(DEFAULT_BAN_MESSAGE);
  });

  it("treats a message containing заблокирован, banned or block as a ban, in any letter case", () => {
    for (
      const text of ["Аккаунт заблокирован", "ЗАБЛОКИРОВАН", "User banned", "Account BLOCKED", DEFAULT_BAN_MESSAGE]
    ) {
      expect(isBanMessage(text), text).toBe(true);
    }
    for (const text of ["Доступ запрещён", "Forbidden", "", null, undefined]) expect(isBanMessage(text)).toBe(false);
  });

  it("refuses banning oneself first, then banning an administrator", () => {
    expect(banRefusal({ self: true, admin: true })).toBe(BAN_TEXTS.selfBan);
    expect(banRefusal({ self: true, admin: false })).toBe("Вы не можете заблокировать себя");
    expect(banRefusal({ self: false, admin: true })).toBe("Нельзя заблокировать администратора");
    expect(banRefusal({ self: false, admin: false })).toBeNull();
  });
});
