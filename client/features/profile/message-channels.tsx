import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  CHANNEL_LABELS,
  MESSAGE_CHANNELS,
  type MessageChannel,
  VK_MESSAGES_TEXTS as T,
  vkAllowMessagesUrl,
} from "../../../domain/message-channels.ts";
import { errorText } from "../../lib/api.ts";
import { useSetChannels, vkMessagesQuery } from "./api.ts";

/**
 * Issue 36: where the artist's answers go. «Получать ответы ВКонтакте» opens VK's allow-messages
 * window for the label's community with the artist's key (VK then tells the server, which binds
 * that VK account); the choice of Telegram, VK or both is saved with PUT /api/profile/channels.
 * Shown only when the site has the VK community's settings.
 */
export function MessageChannels({ hasTelegram }: { hasTelegram: boolean }) {
  const q = useQuery(vkMessagesQuery);
  const save = useSetChannels();
  const [chosen, setChosen] = useState<MessageChannel[] | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const data = q.data;
  useEffect(() => {
    if (data) setChosen(data.channels.filter((c): c is MessageChannel => c === "telegram" || c === "vk"));
  }, [data]);
  if (!data || data.group_id === null) return null;
  const groupId = data.group_id;
  const key = data.key;

  const allow = () => {
    if (!key) return;
    globalThis.open(vkAllowMessagesUrl(groupId, key), "vk-allow-messages", "popup,width=560,height=420");
  };
  const toggle = (c: MessageChannel) =>
    setChosen((now) => (now?.includes(c) ? now.filter((x) => x !== c) : [...(now ?? []), c]));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setNote(null);
    try {
      await save.mutateAsync(MESSAGE_CHANNELS.filter((c) => chosen?.includes(c)));
      setNote({ ok: true, text: T.saved });
    } catch (err) {
      setNote({ ok: false, text: errorText(err, T.saveFailed) });
    }
  };

  return (
    <form className="section stack" style={{ gap: 8 }} onSubmit={submit} data-testid="message-channels">
      <h2 className="label" style={{ fontSize: 14, color: "var(--muted)", fontWeight: 400, margin: 0 }}>
        {T.heading}
      </h2>
      <p className="muted" style={{ margin: 0 }} data-testid="vk-consent">
        {data.allowed ? T.allowedNote : T.notAllowedNote}
      </p>
      {!data.allowed && (
        <div className="row" style={{ gap: 8, flexWrap: "wrap" }}>
          <button type="button" className="btn btn-primary" onClick={allow} disabled={!key}>
            {T.allowButton}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => q.refetch()}>{T.refresh}</button>
        </div>
      )}
      <fieldset className="row" style={{ gap: 16, border: 0, padding: 0, margin: 0, flexWrap: "wrap" }}>
        {MESSAGE_CHANNELS.map((c) => (
          <label key={c} className="row" style={{ gap: 6 }}>
            <input type="checkbox" checked={chosen?.includes(c) ?? false} onChange={() => toggle(c)} />
            {CHANNEL_LABELS[c]}
            {c === "telegram" && !hasTelegram && <span className="muted">({T.noTelegram})</span>}
          </label>
        ))}
      </fieldset>
      <p className="muted" style={{ margin: 0, fontSize: 13 }}>{T.defaultNote}</p>
      <div className="row" style={{ gap: 8 }}>
        <button type="submit" className="btn btn-ghost" disabled={save.isPending || !chosen?.length}>
          {T.save}
        </button>
        {note && (
          <span role={note.ok ? "status" : "alert"} className={note.ok ? "muted" : "alert alert-error"}>
            {note.text}
          </span>
        )}
      </div>
    </form>
  );
}
