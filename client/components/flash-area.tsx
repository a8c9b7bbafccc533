import { dismissFlash, useFlashes } from "../lib/flash.ts";

export function FlashArea() {
  const messages = useFlashes();
  return (
    <div className="flash-area" role="status" aria-live="polite">
      {messages.map((m) => (
        <div key={m.id} className={`flash flash-${m.kind}${m.leaving ? " flash-leaving" : ""}`}>
          <span>{m.text}</span>
          <button type="button" className="flash-close" aria-label="Закрыть" onClick={() => dismissFlash(m.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
