// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { settleXhr, useFakeXhrSession } from "../../components/testing/fake-xhr-session.ts";
import type { ResumableUploadSummary } from "../../../domain/resumable-upload.ts";
import { FakeXhr } from "../../../server/testing/fake-xhr.ts";
import { UploadForm } from "./upload-form.tsx";

const LATER = new Date(Date.now() + 86_400_000).toISOString();
const MODIFIED = 1_700_000_000_000;

/** An unfinished upload of 45 bytes in parts of 10, parts 1–2 on the server. */
const listed: ResumableUploadSummary = {
  id: "up1",
  filename: "Artist - Half Sent.mp3",
  size: 45,
  last_modified: MODIFIED,
  directions: ["label_koster", "radio_k_profit"],
  part_size: 10,
  part_count: 5,
  parts_done: [1, 2],
  bytes_done: 20,
  created_at: new Date().toISOString(),
  expires_at: LATER,
};

/** The server: the list, the upload's status, parts, completion and cancel, each recorded. */
function serve() {
  let open = true;
  FakeXhr.reset((req) => {
    if (req.method === "GET" && req.url === "/api/upload/resumable") {
      return { status: 200, body: { success: true, uploads: open ? [listed] : [] } };
    }
    if (req.method === "GET" && req.url === "/api/upload/resumable/up1") {
      const { directions: _d, last_modified: _m, bytes_done: _b, created_at: _c, ...rest } = listed;
      return { status: 200, body: { success: true, upload: { ...rest, mode: "local", part_urls: {} } } };
    }
    if (req.method === "PUT") return { status: 200, body: { success: true } };
    if (req.url.endsWith("/complete")) {
      open = false;
      return { status: 200, body: { success: true, track_id: 7 } };
    }
    if (req.method === "DELETE") {
      open = false;
      return { status: 200, body: { success: true } };
    }
    return { status: 500, body: { success: false, error: "?" } };
  });
}

/** «Продолжить», then the file chosen in the picker it opens. */
function pick(file: File) {
  fireEvent.click(screen.getByRole("button", { name: "Продолжить: Artist - Half Sent.mp3" }));
  const input = screen.getByTestId("unfinished-file-input") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  fireEvent.change(input);
}

const file = (lastModified = MODIFIED, size = 45) =>
  new File([new Uint8Array(size)], "Artist - Half Sent.mp3", { type: "audio/mpeg", lastModified });

useFakeXhrSession(serve, { signedIn: true });

describe("unfinished uploads on the upload page (issue 31)", () => {
  it("lists an unfinished upload before any file is picked: name, size, share sent, directions", async () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    await settleXhr();
    const row = screen.getByTestId("unfinished-upload");
    expect(row.textContent).toContain("Artist - Half Sent.mp3");
    expect(row.textContent).toContain("0 МБ · отправлено 44% · Лейбл Костёр, Радио Профита");
    expect(within(row).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("44");
    within(row).getByRole("button", { name: "Продолжить: Artist - Half Sent.mp3" });
    within(row).getByRole("button", { name: "Отменить: Artist - Half Sent.mp3" });
    expect(screen.queryAllByTestId("file-row")).toEqual([]);
  });

  it("is not shown to a visitor, who has no uploads to ask for", async () => {
    render(<UploadForm signedIn={false} onNavigate={() => {}} />);
    await settleXhr();
    expect(screen.queryByTestId("unfinished-upload")).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
  });

  it("«Продолжить» takes the file alone: another file is refused, the same one sends only the missing parts", async () => {
    const navigate = vi.fn();
    render(<UploadForm signedIn onNavigate={navigate} />);
    await settleXhr();
    const row = screen.getByTestId("unfinished-upload");

    pick(file(MODIFIED + 1));
    await settleXhr();
    expect(within(row).getByRole("alert").textContent).toBe(
      "Это другой файл: нужен «Artist - Half Sent.mp3», 0 МБ, без изменений.",
    );
    expect(FakeXhr.sent.filter((r) => r.method !== "GET")).toEqual([]);

    vi.useFakeTimers({ toFake: ["setTimeout"] });
    pick(file());
    await settleXhr();
    // No direction and no AI answer was asked: the upload's own are kept.
    expect(FakeXhr.sent.filter((r) => r.method === "PUT").map((r) => r.url.split("/").at(-1))).toEqual(["3", "4", "5"]);
    expect(FakeXhr.sent.some((r) => r.method === "POST" && r.url === "/api/upload/resumable")).toBe(false);
    expect(FakeXhr.sent.at(-1)).toMatchObject({ method: "POST", url: "/api/upload/resumable/up1/complete" });
    screen.getByRole("button", { name: "Успешно загружено!" });
    await act(async () => {
      vi.advanceTimersByTime(1000);
      await Promise.resolve();
    });
    expect(navigate).toHaveBeenCalledWith("/processing");
  });

  it("«Отменить» deletes the upload and takes it off the list", async () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    await settleXhr();
    fireEvent.click(screen.getByRole("button", { name: "Отменить: Artist - Half Sent.mp3" }));
    await settleXhr();
    expect(FakeXhr.sent.filter((r) => r.method === "DELETE").map((r) => r.url)).toEqual(["/api/upload/resumable/up1"]);
    expect(screen.queryByTestId("unfinished-upload")).toBeNull();
  });
});
