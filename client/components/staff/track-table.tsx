import { Link } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { parseDirections } from "../../../domain/directions.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { StaffTrack } from "./staff-queries.ts";
import "./staff.css";

export interface TrackTableTexts {
  selectAll: string;
  select: (filename: string) => string;
  track: string;
  user: string;
  date: string;
  directions: string;
  status: string;
  actions: string;
  downloaded: string;
  notDownloaded: string;
  processing: string;
  failed: string;
  guest: string;
  unknownUser: string;
  edit: string;
  download: string;
  delete: string;
  empty: string;
}

export const TRACK_TABLE_TEXTS_RU: TrackTableTexts = {
  selectAll: "Выбрать все на странице",
  select: (f) => `Выбрать трек ${f}`,
  track: "Трек",
  user: "Пользователь",
  date: "Дата загрузки",
  directions: "Направления",
  status: "Статус",
  actions: "Действия",
  downloaded: "Скачан",
  notDownloaded: "Не скачан",
  processing: "Обработка",
  failed: "Ошибка обработки",
  guest: "гость",
  unknownUser: "—",
  edit: "Изменить",
  download: "Скачать",
  delete: "Удалить",
  empty: "Треки не найдены",
};

export const TRACK_TABLE_TEXTS_EN: TrackTableTexts = {
  selectAll: "Select all on this page",
  select: (f) => `Select track ${f}`,
  track: "Track",
  user: "User",
  date: "Date uploaded",
  directions: "Directions",
  status: "Status",
  actions: "Actions",
  downloaded: "Downloaded",
  notDownloaded: "Not downloaded",
  processing: "Processing",
  failed: "Failed",
  guest: "guest",
  unknownUser: "Unknown",
  edit: "Edit",
  download: "Download",
  delete: "Delete",
  empty: "No tracks found",
};

interface TrackTableProps {
  tracks: StaffTrack[];
  selected: ReadonlySet<number>;
  onSelectedChange: (next: Set<number>) => void;
  editHref: (id: number) => string;
  onDownload: (track: StaffTrack) => void;
  onDelete: (track: StaffTrack) => void;
  directionLabel: (code: string) => string;
  /** Id of the track whose download is being prepared. */
  busyId?: number | null;
  texts?: TrackTableTexts;
}

/** Who uploaded: the account's name (login underneath), else the guest name, else the unknown mark. */
export function trackUserLabel(track: StaffTrack, texts: TrackTableTexts): { main: string; sub?: string } {
  if (track.user_info) {
    const name = track.user_info.name?.trim();
    return name && name !== track.user_info.username
      ? { main: name, sub: `@${track.user_info.username}` }
      : { main: track.user_info.username };
  }
  if (track.guest_username) return { main: track.guest_username, sub: texts.guest };
  return { main: texts.unknownUser };
}

/**
 * The staff track table: select (select-all covers the rows shown, i.e. the current page), track,
 * user, upload date, directions, status, actions (edit, download, delete).
 */
export function TrackTable(
  { tracks, selected, onSelectedChange, editHref, onDownload, onDelete, directionLabel, busyId, texts = TRACK_TABLE_TEXTS_RU }:
    TrackTableProps,
) {
  const allRef = useRef<HTMLInputElement>(null);
  const onPage = tracks.map((t) => t.id);
  const selectedOnPage = onPage.filter((id) => selected.has(id)).length;
  const allSelected = onPage.length > 0 && selectedOnPage === onPage.length;
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = selectedOnPage > 0 && !allSelected;
  }, [selectedOnPage, allSelected]);

  const toggleAll = () => {
    const next = new Set(selected);
    for (const id of onPage) allSelected ? next.delete(id) : next.add(id);
    onSelectedChange(next);
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    next.has(id) ? next.delete(id) : next.add(id);
    onSelectedChange(next);
  };

  return (
    <div className="st-table-wrap">
      <table className="st-table">
        <thead>
          <tr>
            <th className="st-col-check">
              <input
                ref={allRef}
                type="checkbox"
                aria-label={texts.selectAll}
                checked={allSelected}
                disabled={onPage.length === 0}
                onChange={toggleAll}
              />
            </th>
            <th scope="col">{texts.track}</th>
            <th scope="col">{texts.user}</th>
            <th scope="col">{texts.date}</th>
            <th scope="col">{texts.directions}</th>
            <th scope="col">{texts.status}</th>
            <th scope="col" className="st-col-actions">{texts.actions}</th>
          </tr>
        </thead>
        <tbody>
          {tracks.length === 0 && (
            <tr>
              <td colSpan={7} className="st-empty">{texts.empty}</td>
            </tr>
          )}
          {tracks.map((track) => {
            const who = trackUserLabel(track, texts);
            return (
              <tr key={track.id} data-track-id={track.id}>
                <td className="st-col-check">
                  <input
                    type="checkbox"
                    aria-label={texts.select(track.filename)}
                    checked={selected.has(track.id)}
                    onChange={() => toggle(track.id)}
                  />
                </td>
                <td className="st-filename">{track.filename}</td>
                <td>
                  <div>{who.main}</div>
                  {who.sub && <div className="st-muted st-small">{who.sub}</div>}
                </td>
                <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(track.upload_date)}</td>
                <td>
                  <span className="st-badges">
                    {parseDirections(track.directions).map((d) => (
                      <span key={d} className="st-badge">{directionLabel(d)}</span>
                    ))}
                  </span>
                </td>
                <td>
                  <span className="st-badges">
                    <span className={track.downloaded ? "st-badge st-badge-success" : "st-badge st-badge-warning"}>
                      {track.downloaded ? texts.downloaded : texts.notDownloaded}
                    </span>
                    {track.status === "processing" && <span className="st-badge st-badge-info">{texts.processing}</span>}
                    {track.status === "failed" && <span className="st-badge st-badge-danger">{texts.failed}</span>}
                  </span>
                </td>
                <td className="st-col-actions">
                  <span className="st-actions">
                    <Link
                      to={editHref(track.id) as "/"}
                      className="st-btn st-btn-sm"
                      aria-label={`${texts.edit}: ${track.filename}`}
                    >
                      {texts.edit}
                    </Link>
                    <button
                      type="button"
                      className="st-btn st-btn-sm"
                      aria-label={`${texts.download}: ${track.filename}`}
                      disabled={busyId === track.id}
                      onClick={() => onDownload(track)}
                    >
                      {texts.download}
                    </button>
                    <button
                      type="button"
                      className="st-btn st-btn-sm st-btn-danger"
                      aria-label={`${texts.delete}: ${track.filename}`}
                      onClick={() => onDelete(track)}
                    >
                      {texts.delete}
                    </button>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
