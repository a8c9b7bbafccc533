// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { ModeratorFaqEditPage } from "./faq-edit-page.tsx";
import { ModeratorFaqPage } from "./faq-page.tsx";

useSignedInTestSession();

type Faq = { id: number; question: string; answer: string; order: number };

function server(initial: Faq[], opts: { holdSave?: boolean } = {}) {
  let items = [...initial];
  const posts: unknown[] = [];
  let release: () => void = () => {};
  const fetch = fakeFetch({
    "/api/moderator/faq": async (req) => {
      if (req.method === "POST") {
        const body = await req.json();
        posts.push(body);
        if (opts.holdSave) await new Promise<void>((r) => (release = r));
        const faq = { id: items.length + 100, ...body };
        items = [...items, faq];
        return Response.json({ success: true, faq }, { status: 201 });
      }
      return { success: true, faqs: items };
    },
  });
  vi.stubGlobal("fetch", fetch);
  return { posts, release: () => release() };
}

describe("Manage FAQ", () => {
  it("empty state, then Add First FAQ Item opens the modal with order 1 and Save only when filled", async () => {
    const s = server([], { holdSave: true });
    renderPage("/moderator/faq", ModeratorFaqPage);
    await settle();
    expect(screen.getByText("No FAQ items found")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Add First FAQ Item" }));
    const dialog = screen.getByRole("dialog", { name: "Add New FAQ Item" });
    expect((screen.getByLabelText("Order") as HTMLInputElement).value).toBe("1");
    expect(screen.getByLabelText("Answer").getAttribute("rows")).toBe("5");
    const saveBtn = () => screen.getByRole("button", { name: /^Sav/ }) as HTMLButtonElement;
    expect(saveBtn().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Question"), { target: { value: "How?" } });
    fireEvent.change(screen.getByLabelText("Answer"), { target: { value: "  " } });
    expect(saveBtn().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Answer"), { target: { value: "<p>Like <b>this</b></p>" } });
    expect(saveBtn().disabled).toBe(false);
    fireEvent.click(saveBtn());
    await settle();
    // Closing is blocked while saving.
    expect(saveBtn().textContent).toBe("Saving...");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.getByRole("dialog")).toBe(dialog);
    s.release();
    await settle();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(s.posts).toEqual([{ question: "How?", answer: "<p>Like <b>this</b></p>", order: 1 }]);
    expect(screen.getByText("#1")).toBeTruthy();
  });

  it("lists by order with #order and the answer cut at 150 characters", async () => {
    server([
      { id: 2, question: "Second", answer: "<p>" + "a".repeat(160) + "</p>", order: 2 },
      { id: 1, question: "First", answer: "Short", order: 1 },
    ]);
    renderPage("/moderator/faq", ModeratorFaqPage);
    await settle();
    const items = screen.getAllByRole("listitem");
    expect(items[0].textContent).toContain("#1");
    expect(items[0].textContent).toContain("First");
    expect(items[1].textContent).toContain("a".repeat(150) + "...");
    expect(items[1].textContent).not.toContain("a".repeat(151));
    fireEvent.click(screen.getByRole("button", { name: "Delete: Second" }));
    expect(screen.getByRole("dialog", { name: "Delete FAQ Item" }).textContent).toContain("Second");
  });
});

describe("FAQ edit page", () => {
  it("Add New FAQ: placeholders in the preview, then the answer rendered as HTML", async () => {
    server([{ id: 1, question: "Q", answer: "A", order: 4 }]);
    renderPage("/moderator/faq/edit", ModeratorFaqEditPage);
    await settle();
    expect(screen.getByRole("heading", { level: 1, name: "Add New FAQ" })).toBeTruthy();
    expect(screen.getByText("Question will appear here")).toBeTruthy();
    expect(screen.getByText("Answer will appear here")).toBeTruthy();
    expect((screen.getByLabelText("Order") as HTMLInputElement).value).toBe("5");
    expect(screen.getByLabelText("Answer").getAttribute("rows")).toBe("10");
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
    fireEvent.change(screen.getByLabelText("Answer"), {
      target: { value: "<ul><li>one</li></ul><script>x()</script>" },
    });
    expect(screen.getByTestId("faq-preview-body").innerHTML).toBe("<ul><li>one</li></ul>");
  });
});
