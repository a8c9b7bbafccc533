// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { settleXhr, useFakeXhrSession } from "../../../components/testing/fake-xhr-session.ts";
import { FakeXhr } from "../../../../server/testing/fake-xhr.ts";
import { CHECKING_POLL_MS, type ReleaseFileItem, ReleaseFiles } from "./ReleaseFiles.tsx";

const items: ReleaseFileItem[] = [
  {
    kind: "master",
    required: true,
    state: "refused",
    reason: "Это не та запись, что была принята.",
    filename: "old.wav",
  },
  { kind: "extended", required: false, state: "missing", reason: null, filename: null },
  { kind: "instrumental", required: false, state: "accepted", reason: null, filename: "inst.flac" },
];

function serve() {
  FakeXhr.reset((req) => {
    if (req.method === "POST" && req.url === "/api/upload/resumable") {
      return {
        status: 201,
        body: {
          success: true,
          upload: {
            id: "u1",
            filename: "m.wav",
            size: 25,
            mode: "local",
            part_size: 10,
            part_count: 3,
            parts_done: [],
            part_urls: {},
            expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          },
        },
      };
    }
    if (req.method === "PUT") return { status: 200, body: { success: true } };
    if (req.url.endsWith("/complete")) return { status: 200, body: { success: true, release_id: 5, kind: "extended" } };
    return { status: 500, body: { success: false, error: "?" } };
  });
}

function pick(kind: string, file: File) {
  const row = screen.getByTestId(`release-file-${kind}`);
  const input = within(row).getByLabelText(/^Выбрать файл/) as HTMLInputElement;
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  fireEvent.change(input);
}

useFakeXhrSession(serve, { signedIn: true });

describe("the release page's files (issue 34)", () => {
  it("shows each file's state, whether it is needed, its name and a refusal's reason", () => {
    render(<ReleaseFiles releaseId={5} items={items} onChanged={() => {}} />);
    const master = screen.getByTestId("release-file-master");
    expect(master.dataset.state).toBe("refused");
    expect(within(master).getByText("Мастер")).toBeTruthy();
    expect(within(master).getByText("обязательно")).toBeTruthy();
    expect(within(master).getByText("Не принят")).toBeTruthy();
    expect(within(master).getByRole("alert").textContent).toBe("Это не та запись, что была принята.");
    expect(within(master).getByRole("button", { name: "Заменить файл" })).toBeTruthy();
    const ext = screen.getByTestId("release-file-extended");
    expect(within(ext).getByText("по желанию")).toBeTruthy();
    expect(within(ext).getByRole("button", { name: "Загрузить файл" })).toBeTruthy();
    expect(within(screen.getByTestId("release-file-instrumental")).getByText("inst.flac")).toBeTruthy();
  });

  it("sends a file with its kind and release in parts, then asks the page again", async () => {
    const changed = vi.fn();
    render(<ReleaseFiles releaseId={5} items={items} onChanged={changed} />);
    pick("extended", new File([new Uint8Array(25)], "Track (Extended).wav", { lastModified: 1 }));
    await settleXhr();
    const start = FakeXhr.sent[0];
    expect(JSON.parse(start.body as string)).toMatchObject({
      filename: "Track (Extended).wav",
      size: 25,
      kind: "extended",
      release_id: 5,
    });
    expect(FakeXhr.sent.filter((r) => r.method === "PUT").map((r) => r.url)).toEqual([
      "/api/upload/resumable/u1/parts/1",
      "/api/upload/resumable/u1/parts/2",
      "/api/upload/resumable/u1/parts/3",
    ]);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it("refuses a file that is not WAV, FLAC or AIFF before sending anything, and shows the server's refusal", async () => {
    render(<ReleaseFiles releaseId={5} items={items} onChanged={() => {}} />);
    pick("extended", new File([new Uint8Array(5)], "Track.mp3"));
    await settleXhr();
    expect(FakeXhr.sent).toEqual([]);
    expect(within(screen.getByTestId("release-file-extended")).getByRole("alert").textContent).toMatch(
      /нужен WAV, FLAC или AIFF/,
    );
    FakeXhr.reset(() => ({
      status: 409,
      body: { success: false, error: "Файлы для этого релиза больше не принимаются." },
    }));
    pick("extended", new File([new Uint8Array(5)], "Track.wav"));
    await settleXhr();
    expect(within(screen.getByTestId("release-file-extended")).getByRole("alert").textContent).toBe(
      "Файлы для этого релиза больше не принимаются.",
    );
  });

  it("asks the page again while a file is being checked", () => {
    vi.useFakeTimers();
    const changed = vi.fn();
    const checking = items.map((i) => i.kind === "master" ? { ...i, state: "checking" as const, reason: null } : i);
    render(<ReleaseFiles releaseId={5} items={checking} onChanged={changed} />);
    vi.advanceTimersByTime(CHECKING_POLL_MS * 2 + 10);
    expect(changed).toHaveBeenCalledTimes(2);
    cleanup();
    render(<ReleaseFiles releaseId={5} items={items} onChanged={changed} />);
    vi.advanceTimersByTime(CHECKING_POLL_MS * 2);
    expect(changed).toHaveBeenCalledTimes(2);
  });
});
