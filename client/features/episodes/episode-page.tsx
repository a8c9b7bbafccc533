import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { formatCue } from "../../../domain/episodes.ts";
import { MAX_TEMPO_STEP_PCT, type Transition, transitions } from "../../../domain/running-order.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import {
  downloadExport,
  type EpisodeBase,
  episodeQuery,
  type EpisodeView,
  poolQuery,
  type PoolTrack,
  type Row,
  useEpisodeWrites,
} from "./api.ts";
import { AiredForm } from "./aired-form.tsx";
import { EPISODE_TEXTS_EN, EPISODE_TEXTS_RU, type EpisodeTexts } from "./episode-texts.ts";
import { SuggestPanel } from "./suggest-panel.tsx";
import "./episodes.css";

export function AdminEpisodePage() {
  return <EpisodePage base="admin" t={EPISODE_TEXTS_RU} />;
}

export function ModeratorEpisodePage() {
  return <EpisodePage base="moderator" t={EPISODE_TEXTS_EN} />;
}

/** Issue 35: one episode — its running order with the transitions, the pool, the suggestion, exports, aired. */
function EpisodePage({ base, t }: { base: EpisodeBase; t: EpisodeTexts }) {
  const { id } = useParams({ strict: false }) as { id: string };
  const episode = useQuery(episodeQuery(base, Number(id)));
  useDocumentTitle(episode.data ? episode.data.name : t.title);
  return (
    <section className="st-page ep-page">
      <Link to={`/${base}/episodes` as "/admin/episodes"} className="st-small">{t.back}</Link>
      {episode.isPending && <p className="st-muted" role="status">{t.loading}</p>}
      {episode.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(episode.error, t.loadFailed)}</div>
      )}
      {episode.data && <EpisodeDesk base={base} t={t} episode={episode.data} />}
    </section>
  );
}

function EpisodeDesk({ base, t, episode }: { base: EpisodeBase; t: EpisodeTexts; episode: EpisodeView }) {
  const writes = useEpisodeWrites(base, episode.id, episode.direction);
  const pool = useQuery(poolQuery(base, episode.direction));
  const [rows, setRows] = useState<Row[]>(episode.tracks);
  const [focus, setFocus] = useState<{ list: "order" | "pool"; id: number } | null>(null);
  const locked = episode.aired_at !== null;
  const navigate = useNavigate();
  // Saves not yet answered: while any is on its way the page's order is ahead of the cache's, and a
  // cache change (an earlier answer landing after the next key) must not put the older order back.
  const pending = useRef(0);
  useEffect(() => {
    if (pending.current === 0) setRows(episode.tracks);
  }, [episode]);
  useEffect(() => {
    if (!focus) return;
    document.querySelector<HTMLElement>(`[data-list="${focus.list}"][data-track="${focus.id}"]`)?.focus();
  }, [focus, rows, pool.data]);

  const inOrder = new Set(rows.map((r) => r.track_id));
  const poolRows = (pool.data ?? []).filter((p) => !inOrder.has(p.track_id));
  // Saves run one after another, so the server ends with the last order; only the last answer counts.
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const seq = useRef(0);
  const save = (next: Row[]) => {
    setRows(next);
    const mine = ++seq.current;
    pending.current++;
    const items = next.map((r) => ({ track_id: r.track_id, note: "note" in r ? r.note : null }));
    chain.current = chain.current.then(() => writes.order.mutateAsync(items)).then(
      (answer) => {
        pending.current--;
        if (mine === seq.current) writes.accept(answer);
      },
      () => {
        pending.current--;
      },
    );
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= rows.length || from === to) return;
    const next = [...rows];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it);
    save(next);
  };
  const add = (track: PoolTrack, at = rows.length) => save([...rows.slice(0, at), track, ...rows.slice(at)]);
  const remove = (i: number) => save(rows.filter((_, j) => j !== i));

  const removeEpisode = async () => {
    if (!confirm(t.deleteConfirm)) return;
    await writes.remove.mutateAsync();
    await navigate({ to: `/${base}/episodes` as "/admin/episodes" });
  };

  return (
    <>
      <div className="st-page-head ep-head">
        <h1>{episode.name} — {episode.title}</h1>
        <span className={locked ? "st-badge st-badge-success" : "st-badge"}>{locked ? t.aired : t.notAired}</span>
        {!locked && (
          <button type="button" className="st-btn st-btn-ghost st-btn-sm" onClick={removeEpisode}>
            {t.deleteEpisode}
          </button>
        )}
      </div>
      {locked && <p className="st-muted">{t.airedLocked}</p>}
      {writes.order.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(writes.order.error, t.saveFailed)}</div>
      )}
      {episode.notices.length > 0 && (
        <div className="st-alert st-alert-warning" role="status" data-testid="episode-notices">
          <strong>{t.notices}</strong>
          <ul>{episode.notices.map((n, i) => <li key={i}>{t.notice(n.filename, n.reason)}</li>)}</ul>
        </div>
      )}
      <div className="ep-columns">
        <RunningOrder
          t={t}
          rows={rows}
          locked={locked}
          onMove={(from, to) => {
            setFocus({ list: "order", id: rows[from].track_id });
            move(from, to);
          }}
          onRemove={(i) => {
            const next = rows[i + 1] ?? rows[i - 1];
            setFocus(next ? { list: "order", id: next.track_id } : null);
            remove(i);
          }}
          onDropPool={(trackId, at) => {
            const p = poolRows.find((r) => r.track_id === trackId);
            if (p) add(p, at);
          }}
        />
        {!locked && (
          <Pool
            t={t}
            rows={poolRows}
            loading={pool.isPending}
            onAdd={(i) => {
              const next = poolRows[i + 1] ?? poolRows[i - 1];
              setFocus(next ? { list: "pool", id: next.track_id } : { list: "order", id: poolRows[i].track_id });
              add(poolRows[i]);
            }}
            onFocus={(id) => setFocus({ list: "pool", id })}
          />
        )}
      </div>
      {!locked && rows.length > 1 && (
        <SuggestPanel
          t={t}
          rows={rows}
          writes={writes}
          onTake={(order) => {
            const byId = new Map(rows.map((r) => [r.track_id, r]));
            save(order.map((i) => byId.get(i)!));
          }}
        />
      )}
      <Exports base={base} t={t} id={episode.id} />
      <AiredForm t={t} episode={episode} rows={rows} writes={writes} />
    </>
  );
}

const DRAG_TYPE = "application/x-episode-track";

function trackLine(r: Row, t: EpisodeTexts) {
  return (
    <>
      <span className="ep-track">
        <strong>{r.artist}</strong> — {r.title}
      </span>
      <span className="ep-facts st-muted st-small">
        {r.bpm !== null && <span>{r.bpm} {t.bpm}</span>}
        {r.camelot && <span>{r.camelot}</span>}
        {r.duration_s !== null && <span>{formatCue(r.duration_s)}</span>}
        {r.drop_s !== null && <span>{t.drop} {formatCue(r.drop_s)}</span>}
      </span>
    </>
  );
}

function TransitionHint({ tr, t }: { tr: Transition; t: EpisodeTexts }) {
  const steep = tr.tempo_pct !== null && Math.abs(tr.tempo_pct) > MAX_TEMPO_STEP_PCT;
  const clash = tr.key === "clash";
  const tempo = tr.tempo_pct === null ? "—" : `${tr.tempo_pct > 0 ? "+" : ""}${tr.tempo_pct} %`;
  return (
    <li className={steep || clash ? "ep-hint ep-hint-warn" : "ep-hint"} aria-hidden="false" data-testid="transition">
      <span className={steep ? "st-warning-text" : undefined}>{tempo}</span>
      <span aria-hidden="true">·</span>
      <span className={clash ? "st-warning-text" : undefined}>{t.relation[tr.key]}</span>
    </li>
  );
}

function RunningOrder(
  { t, rows, locked, onMove, onRemove, onDropPool }: {
    t: EpisodeTexts;
    rows: Row[];
    locked: boolean;
    onMove: (from: number, to: number) => void;
    onRemove: (i: number) => void;
    onDropPool: (trackId: number, at: number) => void;
  },
) {
  const hints = transitions(rows.map((r) => ({ id: r.track_id, bpm: r.bpm, camelot: r.camelot })));
  const dragFrom = useRef<number | null>(null);
  const keys = (i: number) => (e: KeyboardEvent) => {
    if (locked) return;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      onMove(i, e.key === "ArrowUp" ? i - 1 : i + 1);
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      onRemove(i);
    }
  };
  const drop = (at: number) => (e: DragEvent) => {
    e.preventDefault();
    const pool = e.dataTransfer.getData(DRAG_TYPE);
    if (pool) onDropPool(Number(pool), at);
    else if (dragFrom.current !== null) onMove(dragFrom.current, Math.min(at, rows.length - 1));
    dragFrom.current = null;
  };
  return (
    <section className="st-section ep-order" aria-labelledby="ep-order-h">
      <h2 id="ep-order-h">{t.order}</h2>
      {!locked && <p className="st-muted st-small">{t.orderHelp}</p>}
      {rows.length === 0 && (
        <p className="st-muted ep-drop" onDragOver={(e) => e.preventDefault()} onDrop={drop(0)}>{t.orderEmpty}</p>
      )}
      <ol
        className="ep-rows"
        data-testid="running-order"
        onDragOver={(e) => e.preventDefault()}
        onDrop={drop(rows.length)}
      >
        {rows.flatMap((r, i) => [
          ...(i > 0 ? [<TransitionHint key={`h${r.track_id}`} tr={hints[i - 1]} t={t} />] : []),
          <li
            key={r.track_id}
            className="ep-row"
            tabIndex={0}
            data-list="order"
            data-track={r.track_id}
            data-testid="order-row"
            draggable={!locked}
            onDragStart={() => (dragFrom.current = i)}
            onDrop={(e) => {
              e.stopPropagation();
              drop(i)(e);
            }}
            onKeyDown={keys(i)}
          >
            <span className="ep-pos">{String(i + 1).padStart(2, "0")}</span>
            {trackLine(r, t)}
            {!locked && (
              <span className="ep-row-actions">
                <button
                  type="button"
                  className="st-btn st-btn-ghost st-btn-sm"
                  tabIndex={-1}
                  aria-label={t.up}
                  onClick={() => onMove(i, i - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-ghost st-btn-sm"
                  tabIndex={-1}
                  aria-label={t.down}
                  onClick={() => onMove(i, i + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-ghost st-btn-sm"
                  tabIndex={-1}
                  aria-label={t.remove}
                  onClick={() => onRemove(i)}
                >
                  ✕
                </button>
              </span>
            )}
          </li>,
        ])}
      </ol>
    </section>
  );
}

function Pool(
  { t, rows, loading, onAdd, onFocus }: {
    t: EpisodeTexts;
    rows: PoolTrack[];
    loading: boolean;
    onAdd: (i: number) => void;
    onFocus: (id: number) => void;
  },
) {
  const keys = (i: number) => (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = rows[e.key === "ArrowDown" ? i + 1 : i - 1];
      if (next) onFocus(next.track_id);
    } else if (e.key === "Enter") {
      e.preventDefault();
      onAdd(i);
    }
  };
  return (
    <section className="st-section ep-pool" aria-labelledby="ep-pool-h">
      <h2 id="ep-pool-h">{t.pool}</h2>
      <p className="st-muted st-small">{t.poolHelp}</p>
      {loading && <p className="st-muted" role="status">{t.loading}</p>}
      {!loading && rows.length === 0 && <p className="st-muted">{t.poolEmpty}</p>}
      <ul className="ep-rows" data-testid="pool">
        {rows.map((r, i) => (
          <li
            key={r.track_id}
            className="ep-row"
            tabIndex={0}
            data-list="pool"
            data-track={r.track_id}
            data-testid="pool-row"
            draggable
            onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, String(r.track_id))}
            onKeyDown={keys(i)}
          >
            {trackLine(r, t)}
            <button type="button" className="st-btn st-btn-sm" tabIndex={-1} onClick={() => onAdd(i)}>{t.add}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Exports({ base, t, id }: { base: EpisodeBase; t: EpisodeTexts; id: number }) {
  const [error, setError] = useState<string | null>(null);
  const get = (file: "tracklist.txt" | "tracklist.csv" | "files.zip") => () => {
    setError(null);
    downloadExport(base, id, file).catch((err) => setError(errorText(err, t.loadFailed)));
  };
  return (
    <section className="st-section" aria-labelledby="ep-exports-h">
      <h2 id="ep-exports-h">{t.exports}</h2>
      <div className="st-actions">
        <button type="button" className="st-btn" onClick={get("tracklist.txt")}>{t.tracklistTxt}</button>
        <button type="button" className="st-btn" onClick={get("tracklist.csv")}>{t.tracklistCsv}</button>
        <button type="button" className="st-btn" onClick={get("files.zip")}>{t.filesZip}</button>
      </div>
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
    </section>
  );
}
