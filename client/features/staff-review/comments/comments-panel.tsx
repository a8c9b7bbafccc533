import { useEffect, useRef } from "react";
import { useAuth } from "../../../lib/auth.ts";
import { COMMENT_TEXT_MAX_LENGTH } from "../../../../domain/track-comments.ts";
import { type CommentTexts, span } from "../texts/comment-texts.ts";
import type { StaffComment, TrackCommentsState } from "./use-track-comments.ts";
import type { WaveMarker } from "../player/waveform.tsx";
import "./comments.css";

/** The waveform's markers for the comments of the track (issue 24). */
export function commentMarkers(state: TrackCommentsState, texts: CommentTexts): WaveMarker[] {
  return state.comments.map((c) => ({
    id: c.id,
    at_s: c.at_s,
    end_s: c.end_s,
    shared: c.shared,
    label: texts.marker(c.at_s, c.end_s, c.text),
  }));
}

/**
 * The comments beside the waveform (issue 24, decision 0231): the form of a new or changed comment
 * with its «показать артисту» switch, and the list by moment; a moment's button seeks there. Enter
 * saves (Shift+Enter breaks the line), Esc cancels.
 */
export function CommentsPanel({ state, texts }: { state: TrackCommentsState; texts: CommentTexts }) {
  const me = useAuth().user;
  const mayChange = (c: StaffComment) => Boolean(me && (me.is_admin || c.author?.id === me.id));
  const field = useRef<HTMLTextAreaElement>(null);
  const d = state.draft;
  useEffect(() => {
    if (d) field.current?.focus();
  }, [d?.id, d?.at_s, d?.end_s, d !== null]);

  return (
    <section className="st-comments" aria-label={texts.heading}>
      <div className="st-comments-head">
        <h3 className="st-comments-title">{texts.heading}</h3>
        <button
          type="button"
          className="st-btn st-btn-xs"
          aria-keyshortcuts="C"
          title={`${texts.add} (C)`}
          onClick={state.startAtNow}
        >
          {texts.add} <kbd>C</kbd>
        </button>
      </div>
      {d && (
        <form
          className="st-comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            void state.save();
          }}
        >
          <label className="st-small" htmlFor="st-comment-text">
            {d.id === undefined ? texts.newAt(d.at_s, d.end_s) : `${texts.edit}: ${span(d.at_s, d.end_s)}`}
          </label>
          <textarea
            id="st-comment-text"
            ref={field}
            className="st-textarea"
            rows={2}
            maxLength={COMMENT_TEXT_MAX_LENGTH}
            placeholder={texts.placeholder}
            value={d.text}
            onChange={(e) => state.setDraft({ ...d, text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                state.cancel();
              } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void state.save();
              }
            }}
          />
          <div className="st-comment-form-row">
            <label className="st-comment-share">
              <input
                type="checkbox"
                role="switch"
                checked={d.shared}
                onChange={(e) => state.setDraft({ ...d, shared: e.target.checked })}
              />
              {texts.share}
            </label>
            <button type="submit" className="st-btn st-btn-sm st-btn-primary" disabled={state.busy}>
              {texts.save}
            </button>
            <button type="button" className="st-btn st-btn-sm" onClick={state.cancel}>{texts.cancel}</button>
          </div>
        </form>
      )}
      {state.error && <p className="st-player-error" role="alert">{state.error}</p>}
      {state.comments.length === 0 && !d
        ? <p className="st-muted st-small st-comments-empty">{texts.empty}</p>
        : (
          <ol className="st-comment-list">
            {state.comments.map((c) => (
              <li key={c.id} className="st-comment" data-shared={c.shared || undefined}>
                <button
                  type="button"
                  className="st-comment-at"
                  aria-label={texts.seek(c.at_s)}
                  onClick={() => state.seek(c.at_s)}
                >
                  {span(c.at_s, c.end_s)}
                </button>
                <div className="st-comment-body">
                  <p className="st-comment-text" data-user-content="">{c.text}</p>
                  <p className="st-muted st-small">
                    {c.author?.name ?? texts.noAuthor}
                    {c.shared && <span className="st-comment-shared">{` · ${texts.shared}`}</span>}
                  </p>
                  {mayChange(c) && (
                    <div className="st-comment-actions">
                      <label className="st-comment-share st-small">
                        <input
                          type="checkbox"
                          role="switch"
                          checked={c.shared}
                          disabled={state.busy}
                          onChange={(e) => void state.setShared(c, e.target.checked)}
                        />
                        {texts.share}
                      </label>
                      <button type="button" className="st-btn st-btn-xs" onClick={() => state.startEdit(c)}>
                        {texts.edit}
                      </button>
                      <button
                        type="button"
                        className="st-btn st-btn-xs st-btn-danger"
                        disabled={state.busy}
                        onClick={() => {
                          if (globalThis.confirm?.(texts.removeConfirm) ?? true) void state.remove(c);
                        }}
                      >
                        {texts.remove}
                      </button>
                    </div>
                  )}
                </div>
              </li>
            ))}
          </ol>
        )}
    </section>
  );
}
