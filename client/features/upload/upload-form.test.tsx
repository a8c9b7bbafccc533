// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { settleXhr, useFakeXhrSession } from "../../components/testing/fake-xhr-session.ts";
import { DIRECTION_CONFLICT_MESSAGE } from "../../../domain/directions.ts";
import { readFailedFiles } from "../../components/failed-files.ts";
import { type FakeAnswer, FakeXhr, type SentRequest } from "../../../server/testing/fake-xhr.ts";
import { fileKey } from "../../lib/upload/resumable-upload.ts";
import { UploadForm } from "./upload-form.tsx";

const LATER = new Date(Date.now() + 86_400_000).toISOString();

/** The contract's `Upload` for a started file of `size` bytes in parts of 10. */
function upload(id: string, size: number, partsDone: number[] = []) {
  return {
    id,
    filename: "x.mp3",
    size,
    mode: "local",
    part_size: 10,
    part_count: Math.ceil(size / 10),
    parts_done: partsDone,
    part_urls: {},
    expires_at: LATER,
  };
}

/** Answers the resumable calls: starts get ids up1, up2…; parts wait when `holdParts`; completes give tracks 1, 2… */
function serve(opts: { holdParts?: boolean; start?: (req: SentRequest) => FakeAnswer | null } = {}) {
  let starts = 0;
  let tracks = 0;
  FakeXhr.reset((req) => {
    if (req.method === "POST" && req.url === "/api/upload/resumable") {
      const refused = opts.start?.(req);
      if (refused) return refused;
      const { size } = JSON.parse(req.body as string);
      return { status: 201, body: { success: true, upload: upload(`up${++starts}`, size) } };
    }
    if (req.method === "PUT") return opts.holdParts ? "hold" : { status: 200, body: { success: true } };
    if (req.url.endsWith("/complete")) return { status: 200, body: { success: true, track_id: ++tracks } };
    const m = /\/api\/upload\/resumable\/(\w+)$/.exec(req.url);
    if (req.method === "GET" && m) return { status: 200, body: { success: true, upload: upload(m[1], 30, [1]) } };
    return { status: 500, body: { success: false, error: "?" } };
  });
}

function mp3(name: string, bytes = 1000) {
  return new File([new Uint8Array(bytes)], name, { type: "audio/mpeg", lastModified: 1_700_000_000_000 });
}

function addFiles(files: File[]) {
  const input = screen.getByTestId("file-input") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: files, configurable: true });
  fireEvent.change(input);
}

/**
 * The form handles the XHR's result in promise callbacks. An act whose callback returns a promise makes React
 * run those callbacks and flush their updates before the assertions that follow.
 */
function actAndSettle(step: () => void): Promise<void> {
  return act(() => {
    step();
    return Promise.resolve();
  });
}

const submitButton = () => screen.getByRole("button", { name: /Загрузить|Загрузка|Успешно|Войти/ });

/** Answers the AI question (issue 25), required before a batch goes. */
const answerAi = (label: "Нет" | "Частично" | "Да" = "Нет") =>
  fireEvent.click(screen.getByRole("radio", { name: label }));

useFakeXhrSession(serve);

describe("upload form", () => {
  it("marks an invalid name red, blocks upload until it is removed, and records it as not uploaded", () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("Test Artist - Amen Study.mp3"), mp3("NoSeparator.mp3")]);
    const rows = screen.getAllByTestId("file-row");
    expect(rows).toHaveLength(2);
    expect(rows[0].getAttribute("data-valid")).toBe("true");
    expect(rows[1].className).toContain("file-row-invalid");
    expect(screen.getByRole("alert").textContent).toContain("Следующие файлы имеют неверный формат имени:");
    expect(readFailedFiles()).toEqual([{ filename: "NoSeparator.mp3", error: "Неверный формат имени файла" }]);

    fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }));
    expect(submitButton().textContent).toBe("Загрузить треки (2)");
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(rows[1]).getByRole("button", { name: "Удалить NoSeparator.mp3" }));
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
    expect(submitButton().textContent).toBe("Загрузить трек");
    // Still waiting for the AI question's answer.
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    answerAi();
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("ignores files that are not MP3 and warns about duplicates", () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3"), new File(["x"], "cover.png", { type: "image/png" })]);
    addFiles([mp3("A - 1.mp3")]);
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
  });

  it("disables conflicting directions and says why", () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    expect(screen.queryByText(DIRECTION_CONFLICT_MESSAGE)).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Костёр" }));
    expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole("checkbox", { name: "Подкаст Нейропанк" }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole("checkbox", { name: "Шоу Нейрогон" }) as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByText(DIRECTION_CONFLICT_MESSAGE)).toBeTruthy();
  });

  it("asks anonymous visitors to sign in on any action", () => {
    const onNeedAuth = vi.fn();
    globalThis.addEventListener("need-auth", onNeedAuth);
    try {
      render(<UploadForm signedIn={false} onNavigate={() => {}} />);
      expect(submitButton().textContent).toBe("Войти для загрузки");
      fireEvent.click(submitButton());
      fireEvent.click(screen.getByRole("button", { name: /Войдите, чтобы отправить трек/ }));
      fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }));
      answerAi("Частично");
      expect(onNeedAuth).toHaveBeenCalledTimes(4);
      expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).checked).toBe(false);
      expect((screen.getByRole("radio", { name: "Частично" }) as HTMLInputElement).checked).toBe(false);
    } finally {
      globalThis.removeEventListener("need-auth", onNeedAuth);
    }
  });

  it("uploads each file in parts with per-file progress, then clears the form and goes to processing after 1 s", async () => {
    vi.useFakeTimers();
    localStorage.setItem("accessToken", "acc");
    localStorage.setItem("refreshToken", "ref");
    serve({ holdParts: true });
    const onNavigate = vi.fn();
    render(<UploadForm signedIn onNavigate={onNavigate} />);
    addFiles([mp3("A - 1.mp3", 20), mp3("B - 2.mp3", 30)]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Подкаст Нейропанк" }));
    answerAi("Частично");
    await actAndSettle(() => fireEvent.click(submitButton()));
    await settleXhr(50);
    // Both files were checked by the server before any byte moved.
    const starts = FakeXhr.sent.filter((r) => r.method === "POST");
    expect(starts.map((r) => JSON.parse(r.body as string))).toEqual([
      {
        filename: "A - 1.mp3",
        size: 20,
        last_modified: 1_700_000_000_000,
        directions: "label_neuropunk,podcast_neuropunk",
        ai_use: "partly",
      },
      {
        filename: "B - 2.mp3",
        size: 30,
        last_modified: 1_700_000_000_000,
        directions: "label_neuropunk,podcast_neuropunk",
        ai_use: "partly",
      },
    ]);
    expect(starts[0].headers.Authorization).toBe("Bearer acc");
    expect(submitButton().textContent).toBe("Загрузка...");

    const part = FakeXhr.held.shift()!;
    expect(part.url).toBe("/api/upload/resumable/up1/parts/1");
    act(() => part.progress(5, 10));
    expect(screen.getAllByRole("progressbar").map((b) => b.getAttribute("aria-valuenow"))).toEqual(["25", "0"]);
    await actAndSettle(() => part.respond(200, { success: true }));
    await settleXhr(50);
    // The rest of the parts go through one by one.
    while (FakeXhr.held.length > 0) {
      const next = FakeXhr.held.shift()!;
      await actAndSettle(() => next.respond(200, { success: true }));
      await settleXhr(50);
    }
    expect(FakeXhr.sent.filter((r) => r.method === "PUT").map((r) => r.url)).toEqual([
      "/api/upload/resumable/up1/parts/1",
      "/api/upload/resumable/up1/parts/2",
      "/api/upload/resumable/up2/parts/1",
      "/api/upload/resumable/up2/parts/2",
      "/api/upload/resumable/up2/parts/3",
    ]);
    expect(FakeXhr.sent.filter((r) => r.url.endsWith("/complete"))).toHaveLength(2);
    expect(submitButton().textContent).toBe("Успешно загружено!");
    expect(onNavigate).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(onNavigate).toHaveBeenCalledWith("/processing");
    expect(screen.queryAllByTestId("file-row")).toHaveLength(0);
    expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).checked).toBe(false);
    // The next batch is asked again.
    expect((screen.getByRole("radio", { name: "Частично" }) as HTMLInputElement).checked).toBe(false);
  });

  it("shows the server's ban text and sends the user to /login after 3 s", async () => {
    vi.useFakeTimers();
    serve({ start: () => ({ status: 403, body: { success: false, error: "Аккаунт заблокирован: спам" } }) });
    const onNavigate = vi.fn();
    render(<UploadForm signedIn onNavigate={onNavigate} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    answerAi();
    await actAndSettle(() => fireEvent.click(submitButton()));
    await settleXhr(50);
    expect(screen.getByText("Аккаунт заблокирован: спам")).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(onNavigate).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onNavigate).toHaveBeenCalledWith("/login");
  });

  it("keeps the list after a failed upload and shows the error", async () => {
    serve({ start: () => ({ status: 500, body: { success: false, error: "boom" } }) });
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    answerAi();
    await actAndSettle(() => fireEvent.click(submitButton()));
    await settleXhr(50);
    expect(screen.getByText("Ошибка загрузки треков. Пожалуйста, попробуйте позже.")).toBeTruthy();
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
    expect(submitButton().textContent).toBe("Загрузить трек");
  });

  it("a file with a stored unfinished upload shows «Продолжить» and its share, and continues with only the missing parts", async () => {
    const file = mp3("A - 1.mp3", 30);
    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({ [fileKey(file)]: { id: "old", size: 30, part_size: 10, parts_done: [1], expires_at: LATER } }),
    );
    const onNavigate = vi.fn();
    render(<UploadForm signedIn onNavigate={onNavigate} />);
    addFiles([file]);
    await settleXhr(50);
    const row = screen.getByTestId("file-row");
    expect(within(row).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("33");
    // Its directions were given when it started: none are needed to go on.
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
    await actAndSettle(() => fireEvent.click(within(row).getByRole("button", { name: "Продолжить: A - 1.mp3" })));
    await settleXhr(50);
    expect(FakeXhr.sent.filter((r) => r.method === "POST" && r.url === "/api/upload/resumable")).toHaveLength(0);
    expect(FakeXhr.sent.filter((r) => r.method === "PUT").map((r) => r.url)).toEqual([
      "/api/upload/resumable/old/parts/2",
      "/api/upload/resumable/old/parts/3",
    ]);
    expect(submitButton().textContent).toBe("Успешно загружено!");
    expect(localStorage.getItem("resumableUploads")).toBeNull();
  });

  it("a file whose stored upload the server no longer has shows no «Продолжить»", async () => {
    const file = mp3("A - 1.mp3", 30);
    localStorage.setItem(
      "resumableUploads",
      JSON.stringify({ [fileKey(file)]: { id: "old", size: 30, part_size: 10, parts_done: [1], expires_at: LATER } }),
    );
    FakeXhr.reset(() => ({ status: 404, body: { success: false, error: "Загрузка не найдена" } }));
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([file]);
    await settleXhr(50);
    expect(screen.queryByRole("button", { name: /Продолжить/ })).toBeNull();
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(localStorage.getItem("resumableUploads")).toBeNull();
  });

  it("starts the failed-files list afresh at each submit", async () => {
    localStorage.setItem(
      "failedFiles",
      JSON.stringify([{ filename: "old.mp3", error: "Неверный формат имени файла" }]),
    );
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3"), mp3("bad.mp3")]);
    fireEvent.click(screen.getByRole("button", { name: "Удалить bad.mp3" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    answerAi();
    await actAndSettle(() => fireEvent.click(submitButton()));
    expect(readFailedFiles()).toEqual([{ filename: "bad.mp3", error: "Неверный формат имени файла" }]);
  });

  it("a paused direction (issue 25) is disabled, shows its pause message, and leaves a choice made before", () => {
    const { rerender } = render(<UploadForm signedIn onNavigate={() => {}} />);
    fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Костёр" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    rerender(
      <UploadForm
        signedIn
        onNavigate={() => {}}
        intake={{
          label_koster: { open: false, pause_message: "Лейбл на каникулах до января" },
          podcast_koster: { open: false, pause_message: null },
          show_neurogon: { open: true, pause_message: null },
        }}
      />,
    );
    const koster = screen.getByRole("checkbox", { name: "Лейбл Костёр" }) as HTMLInputElement;
    expect(koster.disabled).toBe(true);
    expect(koster.checked).toBe(false);
    expect(koster.getAttribute("aria-describedby")).toBe("direction-paused-label_koster");
    expect(document.getElementById("direction-paused-label_koster")?.textContent).toBe("Лейбл на каникулах до января");
    // Paused without a message: the standard text.
    expect(screen.getByTestId("direction-podcast_koster").textContent).toContain(
      "Приём треков на это направление временно приостановлен.",
    );
    // Open ones stay as they were; label_koster's conflicts are free again.
    const show = screen.getByRole("checkbox", { name: "Шоу Нейрогон" }) as HTMLInputElement;
    expect(show.checked).toBe(true);
    expect(show.disabled).toBe(false);
    expect((screen.getByRole("checkbox", { name: "Подкаст Нейропанк" }) as HTMLInputElement).disabled).toBe(false);
    // A click on the paused one changes nothing.
    fireEvent.click(koster);
    expect(koster.checked).toBe(false);
  });

  it("shows the server's refusal of a paused or capped direction like other upload errors", async () => {
    const paused = "Шоу Нейрогон: приём на паузе до весны";
    const capped = "Шоу Нейрогон: не больше 2 треков за 30 дней. Следующий можно отправить 05.12.2026.";
    let refusal: FakeAnswer = { status: 409, body: { success: false, error: paused } };
    serve({ start: () => refusal });
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    answerAi();
    await actAndSettle(() => fireEvent.click(submitButton()));
    await settleXhr(50);
    expect(screen.getByRole("alert").textContent).toBe(paused);
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
    refusal = { status: 429, body: { success: false, error: capped } };
    await actAndSettle(() => fireEvent.click(submitButton()));
    await settleXhr(50);
    expect(screen.getByRole("alert").textContent).toBe(capped);
  });
});
