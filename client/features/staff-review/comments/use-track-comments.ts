import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { read } from "../../../lib/api.ts";
import { panelErrorText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { panel, type StaffBase, staffTrackQuery } from "../../../lib/staff-queries.ts";
import type { CommentTexts } from "../texts/comment-texts.ts";
import type { TrackCommentView } from "../../../../domain/track-comments.ts";

/**
 * The comments of the track the player holds (issue 24, decision 0231): read from the staff track
 * detail (`comments`, by moment), added at the current moment (C) or over a dragged range, edited,
 * shared with the artist («показать артисту») or deleted. The server decides who may change which
 * (the author and admins); the buttons only follow it.
 */

/** A comment as the staff track detail carries it. */
export type StaffComment = TrackCommentView;

/** The form: a new comment (no id) or one being changed. */
export interface CommentDraft {
  id?: number;
  at_s: number;
  end_s: number | null;
  text: string;
  shared: boolean;
}

/** What the hook needs of the player. */
interface PlayerPart {
  current: { id: number } | null;
  audio: HTMLAudioElement | null;
  seekTo: (seconds: number) => void;
}

/** Moments to a tenth of a second: what a person can point at. */
const tenth = (s: number) => Math.round(Math.max(0, s) * 10) / 10;

export function useTrackComments(
  { base, tracksKey, player, texts }: {
    base: StaffBase;
    tracksKey: readonly string[];
    player: PlayerPart;
    texts: CommentTexts;
  },
) {
  const id = player.current?.id ?? null;
  const options = staffTrackQuery(base, tracksKey)(id ?? 0);
  const query = useQuery({ ...options, enabled: id !== null });
  const queryClient = useQueryClient();
  const words = useReviewTexts();
  const detail = query.data as { id: number; comments?: StaffComment[] } | undefined;
  const comments: StaffComment[] = id !== null && detail?.id === id ? detail.comments ?? [] : [];
  const [draft, setDraft] = useState<CommentDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // Another track: no draft, no error, from the render that shows it (an effect after it could throw
  // away a comment C already opened on the new track; decision 0465).
  const [draftOf, setDraftOf] = useState(id);
  if (draftOf !== id) {
    setDraftOf(id);
    setDraft(null);
    setError("");
  }
  const latest = useRef({ id, player, draft });
  /** A save under way: Enter again (a double Enter, a held key) saves nothing more (decision 0277). */
  const saving = useRef(false);
  latest.current = { id, player, draft };

  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });

  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError("");
    try {
      await call();
      await refresh();
      return true;
    } catch (err) {
      setError(panelErrorText(words, err, texts.failed));
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** C: a comment at the moment the player is at. */
  const startAtNow = useCallback(() => {
    const { id, player } = latest.current;
    if (id === null) return;
    setError("");
    setDraft({ at_s: tenth(player.audio?.currentTime ?? 0), end_s: null, text: "", shared: false });
  }, []);

  /** A range dragged across the waveform. */
  const startRange = useCallback((from: number, to: number) => {
    if (latest.current.id === null) return;
    const at = tenth(from);
    const end = tenth(to);
    setError("");
    setDraft({ at_s: at, end_s: end > at ? end : null, text: "", shared: false });
  }, []);

  const api = () => panel(base).tracks[":id"].comments;

  return {
    trackId: id,
    comments,
    draft,
    busy,
    error,
    setDraft,
    startAtNow,
    startRange,
    startEdit: (c: StaffComment) =>
      setDraft({ id: c.id, at_s: c.at_s, end_s: c.end_s, text: c.text, shared: c.shared }),
    cancel: () => {
      setDraft(null);
      setError("");
    },
    seek: (seconds: number) => player.seekTo(seconds),
    async save() {
      const d = latest.current.draft;
      if (!d || id === null || saving.current) return;
      saving.current = true;
      const ok = await run(() =>
        d.id === undefined
          ? read(
            api().$post({
              param: { id: String(id) },
              json: { at_s: d.at_s, end_s: d.end_s, text: d.text, shared: d.shared },
            }),
          )
          : read(
            api()[":comment_id"].$patch({
              param: { id: String(id), comment_id: String(d.id) },
              json: { text: d.text, shared: d.shared },
            }),
          )
      ).finally(() => (saving.current = false));
      if (ok) {
        latest.current.draft = null;
        setDraft(null);
      }
    },
    async setShared(c: StaffComment, shared: boolean) {
      if (id === null) return;
      await run(() =>
        read(api()[":comment_id"].$patch({ param: { id: String(id), comment_id: String(c.id) }, json: { shared } }))
      );
    },
    async remove(c: StaffComment) {
      if (id === null) return;
      await run(() => read(api()[":comment_id"].$delete({ param: { id: String(id), comment_id: String(c.id) } })));
    },
  };
}

export type TrackCommentsState = ReturnType<typeof useTrackComments>;
