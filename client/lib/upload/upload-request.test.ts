import { describe, expect, it } from "vitest";
import { interpretUpload } from "./upload-request.ts";

const answer = (
  status: number,
  body: Record<string, unknown> | null,
  extra: Partial<{ timedOut: boolean; unparsable: boolean }> = {},
) => ({
  status,
  body,
  unparsable: body === null,
  timedOut: false,
  ...extra,
});

describe("upload answers", () => {
  it("reads the track ids of a successful upload", () => {
    expect(interpretUpload(answer(200, { success: true, track_ids: [4, 5] }))).toEqual({
      kind: "success",
      trackIds: [4, 5],
    });
  });

  it("calls anything else from a 2xx an unknown answer", () => {
    for (const body of [{ success: true }, { track_ids: [1] }, { success: true, track_ids: "1" }, null]) {
      expect(interpretUpload(answer(200, body))).toEqual({ kind: "error", message: "Неизвестный ответ от сервера." });
    }
  });

  it("says the upload timed out after ten minutes", () => {
    expect(interpretUpload(answer(0, null, { timedOut: true }))).toEqual({
      kind: "error",
      message: "Превышено время ожидания. Попробуйте загрузить файлы по частям.",
    });
  });

  it("treats a 403 as a ban and keeps the server's text", () => {
    expect(interpretUpload(answer(403, { success: false, error: "Вы заблокированы: спам" }))).toEqual({
      kind: "banned",
      message: "Вы заблокированы: спам",
    });
    expect(interpretUpload(answer(403, null))).toEqual({
      kind: "banned",
      message: "Ваш аккаунт заблокирован за нарушение правил сервиса",
    });
  });

  it("gives the generic text for server failures and lost connections", () => {
    const generic = { kind: "error", message: "Ошибка загрузки треков. Пожалуйста, попробуйте позже." };
    expect(interpretUpload(answer(500, { success: false, error: "Внутренняя ошибка сервера" }))).toEqual(generic);
    expect(interpretUpload(answer(502, null))).toEqual(generic);
    expect(interpretUpload(answer(0, null))).toEqual(generic);
  });

  it("shows the hourly upload limit's text (429, MAX_UPLOADS_PER_HOUR)", () => {
    const error = "Слишком много загрузок за час: не больше 60 файлов. Попробуйте позже: через 12 мин.";
    expect(interpretUpload(answer(429, { success: false, error }))).toEqual({ kind: "error", message: error });
  });

  it("shows the server's reason for a refused request", () => {
    expect(interpretUpload(answer(400, { success: false, error: "Выберите хотя бы одно направление" }))).toEqual({
      kind: "error",
      message: "Выберите хотя бы одно направление",
    });
  });
});
