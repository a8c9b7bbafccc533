// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DIRECTION_CONFLICT_MESSAGE } from "../../../domain/directions.ts";
import { readFailedFiles } from "../../components/failed-files.ts";
import { UploadForm } from "./upload-form.tsx";

/** A stand-in for XMLHttpRequest that the test answers by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static sent: FakeXhr[] = [];
  status = 0;
  responseText = "";
  timeout = 0;
  withCredentials = false;
  headers: Record<string, string> = {};
  body: FormData | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
    FakeXhr.sent.push(this);
  }
  abort() {}
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function mp3(name: string, bytes = 1000) {
  return new File([new Uint8Array(bytes)], name, { type: "audio/mpeg" });
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

beforeEach(() => {
  localStorage.clear();
  FakeXhr.last = null;
  FakeXhr.sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

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
      expect(onNeedAuth).toHaveBeenCalledTimes(3);
      expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).checked).toBe(false);
    } finally {
      globalThis.removeEventListener("need-auth", onNeedAuth);
    }
  });

  it("uploads with progress, then clears the form and goes to processing after 1 s", async () => {
    vi.useFakeTimers();
    localStorage.setItem("accessToken", "acc");
    localStorage.setItem("refreshToken", "ref");
    const onNavigate = vi.fn();
    render(<UploadForm signedIn onNavigate={onNavigate} />);
    addFiles([mp3("A - 1.mp3", 100), mp3("B - 2.mp3", 300)]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Подкаст Нейропанк" }));
    await actAndSettle(() => fireEvent.click(submitButton()));
    const xhr = FakeXhr.last!;
    expect(xhr.headers.Authorization).toBe("Bearer acc");
    expect(xhr.timeout).toBe(600_000);
    expect(xhr.body!.getAll("files").map((f) => (f as File).name)).toEqual(["A - 1.mp3", "B - 2.mp3"]);
    expect(xhr.body!.getAll("directions")).toEqual(["label_neuropunk", "podcast_neuropunk"]);
    expect(submitButton().textContent).toBe("Загрузка...");

    act(() => xhr.upload.onprogress!({ lengthComputable: true, loaded: 250, total: 400 }));
    const bars = screen.getAllByRole("progressbar");
    expect(bars.map((b) => b.getAttribute("aria-valuenow"))).toEqual(["100", "50"]);

    await actAndSettle(() => xhr.respond(200, { success: true, track_ids: [1, 2] }));
    expect(submitButton().textContent).toBe("Успешно загружено!");
    expect(onNavigate).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(onNavigate).toHaveBeenCalledWith("/processing");
    expect(screen.queryAllByTestId("file-row")).toHaveLength(0);
    expect((screen.getByRole("checkbox", { name: "Лейбл Нейропанк" }) as HTMLInputElement).checked).toBe(false);
  });

  it("shows the server's ban text and sends the user to /login after 3 s", async () => {
    vi.useFakeTimers();
    const onNavigate = vi.fn();
    render(<UploadForm signedIn onNavigate={onNavigate} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    await actAndSettle(() => fireEvent.click(submitButton()));
    await actAndSettle(() => FakeXhr.last!.respond(403, { success: false, error: "Аккаунт заблокирован: спам" }));
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
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    await actAndSettle(() => fireEvent.click(submitButton()));
    await actAndSettle(() => FakeXhr.last!.respond(500, { success: false, error: "boom" }));
    expect(screen.getByText("Ошибка загрузки треков. Пожалуйста, попробуйте позже.")).toBeTruthy();
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
    expect(submitButton().textContent).toBe("Загрузить трек");
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
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles([mp3("A - 1.mp3")]);
    fireEvent.click(screen.getByRole("checkbox", { name: "Шоу Нейрогон" }));
    await actAndSettle(() => fireEvent.click(submitButton()));
    await actAndSettle(() =>
      FakeXhr.last!.respond(409, { success: false, error: "Шоу Нейрогон: приём на паузе до весны" })
    );
    expect(screen.getByRole("alert").textContent).toBe("Шоу Нейрогон: приём на паузе до весны");
    expect(screen.getAllByTestId("file-row")).toHaveLength(1);
    await actAndSettle(() => fireEvent.click(submitButton()));
    const capped = "Шоу Нейрогон: не больше 2 треков за 30 дней. Следующий можно отправить 05.12.2026.";
    await actAndSettle(() => FakeXhr.last!.respond(429, { success: false, error: capped }));
    expect(screen.getByRole("alert").textContent).toBe(capped);
  });
});
