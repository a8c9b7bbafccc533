import { dismissFlash, useFlashes } from "../lib/flash.ts";

/** Flash messages, top right; errors are announced assertively, the rest politely. */
export function FlashArea() {
  const messages = useFlashes();
  return (
    <div className="flash-area" aria-live="polite">
      {messages.map((m) => (
        <div
          key={m.id}
          role={m.kind === "error" ? "alert" : "status"}
          className={`flash flash-${m.kind}${m.leaving ? " flash-leaving" : ""}`}
        >
          <span>{m.text}</span>
          <button type="button" className="flash-close" aria-label="Закрыть" onClick={() => dismissFlash(m.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
