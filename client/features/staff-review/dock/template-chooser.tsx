import { useEffect, useRef } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { templateMessage } from "../../../../domain/decision-message.ts";
import type { DeskOutcome } from "../api/desk-queries.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { DecisionDesk } from "./use-decision-desk.ts";
import { ReasonToggles } from "./reason-toggles.tsx";

/**
 * The chooser of the outcome's ready-made messages in the decision dock (issue 23): each template
 * as the artist will read it, under its number key, and Enter to send with the message typed or
 * none. It takes the focus when it opens, so Enter sends from it.
 */
export function TemplateChooser({ desk, chooser, filename, label }: {
  desk: DecisionDesk;
  chooser: DeskOutcome;
  filename: string;
  label: (d: Direction) => string;
}) {
  const t = useReviewTexts().desk;
  const { pairs } = desk;
  const chooserRef = useRef<HTMLDivElement>(null);
  // The chooser takes the focus: Enter then sends from it, not from a link or button focused before.
  useEffect(() => {
    chooserRef.current?.focus({ preventScroll: true });
  }, [chooser]);
  // The templates read as the artist will get them: the server's own rule (domain/decision-message.ts),
  // once per direction when `{direction}` makes the texts differ.
  const previews = (text: string) => {
    const byText = new Map<string, Direction[]>();
    for (const p of pairs) {
      const filled = templateMessage(text, filename, p.direction as Direction);
      byText.set(filled, [...(byText.get(filled) ?? []), p.direction as Direction]);
    }
    return [...byText];
  };
  return (
    <div
      ref={chooserRef}
      tabIndex={-1}
      className="dk-chooser"
      data-desk-chooser=""
      role="group"
      aria-label={t.chooserTitles[chooser]}
    >
      <p className="dk-chooser-title">{t.chooserTitles[chooser]}</p>
      {chooser !== "accepted" && <ReasonToggles desk={desk} />}
      {desk.templates.length === 0 && <p className="st-muted st-small">{t.noTemplates}</p>}
      <ol className="dk-templates">
        {desk.templates.map((t, i) => (
          <li key={t.id}>
            <button
              type="button"
              className="st-btn dk-template"
              aria-keyshortcuts={String(i + 1)}
              onClick={() => desk.pick(i + 1)}
            >
              <kbd aria-hidden="true">{i + 1}</kbd>
              <span className="dk-template-title" data-user-content="">{t.title}</span>
              {previews(t.text).map(([text, dirs]) => (
                <span key={dirs.join()} className="dk-template-text">
                  {pairs.length > 1 && <span className="dk-template-dirs">{dirs.map(label).join(", ")}:</span>}
                  <span data-template-text="" data-user-content="">{text}</span>
                </span>
              ))}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="st-btn st-btn-primary" aria-keyshortcuts="Enter" onClick={desk.send}>
        {desk.message.trim() ? t.sendWithMine : t.sendWithout} <kbd aria-hidden="true">Enter</kbd>
      </button>
    </div>
  );
}
