import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { RELEASE_STAGE_MOVES } from "../../../domain/release-desk.ts";
import type { ReleasePatch } from "../../../domain/release-schemas.ts";
import { Field } from "../../components/ui/field.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import {
  downloadFile,
  type Panel,
  type StaffReleaseOne,
  staffReleaseQuery,
  usePatchRelease,
  useSaveStaffLabelCopy,
} from "./staff-api.ts";
import { LabelCopyForm } from "./label-copy-form.tsx";
import { LABEL_COPY_FORM_RU } from "./releases-texts.ts";
import { LABEL_COPY_FORM_EN } from "./staff-texts.ts";
import { labelName, textsOf } from "./staff-list-page.tsx";
import "./releases.css";

/**
 * One release for staff (issue 34): its stage moves, the catalogue number (the label's next one
 * taken with one click), the date, title, version and note, the exports, the materials with their
 * checks' figures, the label copy (staff may edit it) and the history.
 */
function StaffReleasePage({ panel }: { panel: Panel }) {
  const T = textsOf(panel);
  const { id } = useParams({ strict: false }) as { id?: string };
  const releaseId = Number(id);
  const one = useQuery(staffReleaseQuery(panel, releaseId));
  useDocumentTitle(one.data ? `${one.data.release.title} — ${T.title}` : T.title);
  if (one.isPending) return <p className="st-muted" role="status">{T.loading}</p>;
  if (!one.data) {
    return (
      <section className="st-page">
        <div className="st-alert st-alert-error" role="alert">{errorText(one.error, T.loadFailed)}</div>
        <Link to={`/${panel}/releases` as "/admin/releases"}>{T.back}</Link>
      </section>
    );
  }
  return <ReleaseView key={one.data.release.id} panel={panel} data={one.data} />;
}

function ReleaseView({ panel, data }: { panel: Panel; data: StaffReleaseOne }) {
  const T = textsOf(panel);
  const r = data.release;
  const patch = usePatchRelease(panel, r.id);
  const saveCopy = useSaveStaffLabelCopy(panel, r.id);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const send = (change: Omit<ReleasePatch, "revision">) =>
    patch.mutateAsync({ ...change, revision: r.revision } as ReleasePatch).then(
      () => setMessage({ ok: true, text: T.saved }),
      (err) => setMessage({ ok: false, text: errorText(err, T.saveFailed) }),
    );
  const download = (path: string, name: string) =>
    downloadFile(`/${panel}/releases/${r.id}/${path}`, name).catch((err) =>
      setMessage({ ok: false, text: errorText(err, T.loadFailed) })
    );

  return (
    <section className="st-page" data-testid="staff-release">
      <Link to={`/${panel}/releases` as "/admin/releases"} className="st-muted">{T.back}</Link>
      <div className="st-page-head">
        <h1>{r.artists.join(", ")} — {r.title}{r.version ? ` (${r.version})` : ""}</h1>
      </div>
      <p className="st-badges">
        <span className="st-badge st-badge-accent">{labelName(panel, r.direction)}</span>
        <span className="st-badge" data-testid="staff-release-stage">{T.stages[r.stage]}</span>
        {r.catalogue_number && <span className="st-badge st-badge-info">{r.catalogue_number}</span>}
        {r.release_date && <span className="st-badge st-badge-info">{r.release_date}</span>}
        {r.artist_username && <span className="st-muted">@{r.artist_username}</span>}
      </p>
      {message && (
        <div
          className={message.ok ? "st-alert st-alert-success" : "st-alert st-alert-error"}
          role={message.ok ? "status" : "alert"}
        >
          {message.text}
        </div>
      )}
      <div className="rel-grid">
        <div className="st-stack">
          <section className="st-section">
            <h2>{T.moveTo}</h2>
            <div className="st-actions">
              {RELEASE_STAGE_MOVES[r.stage].map((s) => (
                <button
                  key={s}
                  type="button"
                  className="st-btn st-btn-sm"
                  disabled={patch.isPending}
                  onClick={() => send({ stage: s })}
                >
                  {T.stages[s]}
                </button>
              ))}
            </div>
          </section>
          <Fields key={r.revision} panel={panel} release={r} pending={patch.isPending} send={send} />
          <section className="st-section">
            <h2>{T.labelCopy}</h2>
            {!r.label_copy && <p className="st-muted">{T.noLabelCopy}</p>}
            <LabelCopyForm
              staff
              initial={r.label_copy}
              defaults={{ title: r.title, artists: r.artists }}
              texts={panel === "admin" ? LABEL_COPY_FORM_RU : LABEL_COPY_FORM_EN}
              onSave={(copy) => saveCopy.mutateAsync(copy)}
            />
          </section>
        </div>
        <div className="st-stack">
          <section className="st-section">
            <div className="st-actions">
              <button
                type="button"
                className="st-btn st-btn-sm"
                onClick={() => download("label-copy.csv", "label-copy.csv")}
              >
                {T.labelCopyCsv}
              </button>
              <button
                type="button"
                className="st-btn st-btn-sm"
                data-testid="files-zip"
                onClick={() => download("files.zip", "files.zip")}
              >
                {T.filesZip}
              </button>
            </div>
          </section>
          <section className="st-section">
            <h2>{T.materials}</h2>
            <ul className="st-kv-list">
              {r.materials.map((m) => (
                <li key={m.kind} className="st-kv-item" data-kind={m.kind}>
                  <span className="st-kv-key">{T.kinds[m.kind]}</span>
                  <span
                    className={`st-badge ${
                      m.state === "accepted" ? "st-badge-success" : m.state === "refused" ? "st-badge-danger" : ""
                    }`}
                  >
                    {T.states[m.state]}
                  </span>
                  {m.filename && <span className="st-filename">{m.filename}</span>}
                  {m.reason && <span className="st-warning-text">{m.reason}</span>}
                  {m.report !== null && m.report !== undefined && (
                    <code className="st-small">{JSON.stringify(m.report)}</code>
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section className="st-section">
            <h2>{T.history}</h2>
            <ol className="st-kv-list" data-testid="release-history">
              {data.history.map((h) => (
                <li key={h.id} className="st-kv-item">
                  <span className="st-muted st-small">{formatDateTime(h.at)}</span>
                  <span>{T.actions[h.action] ?? h.action}</span>
                  <span className="st-muted">{T.by(h.by)}</span>
                  {h.action === "edit" && <code className="st-small">{JSON.stringify(h.after)}</code>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </section>
  );
}

/** The release's own fields, as read at its revision (a new revision starts them again). */
function Fields({ panel, release: r, pending, send }: {
  panel: Panel;
  release: StaffReleaseOne["release"];
  pending: boolean;
  send: (change: Omit<ReleasePatch, "revision">) => Promise<unknown>;
}) {
  const T = textsOf(panel);
  const patch = { isPending: pending };
  const [catalogue, setCatalogue] = useState(r.catalogue_number ?? "");
  const [date, setDate] = useState(r.release_date ?? "");
  const [title, setTitle] = useState(r.title);
  const [version, setVersion] = useState(r.version ?? "");
  const [note, setNote] = useState(r.note ?? "");
  return (
    <section className="st-section">
      <div className="st-form-grid">
        <Field label={T.catalogue}>
          <input
            className="st-input"
            name="catalogue_number"
            value={catalogue}
            onChange={(e) => setCatalogue(e.target.value)}
          />
        </Field>
        {r.suggested_catalogue_number && (
          <button
            type="button"
            className="st-btn st-btn-sm"
            data-testid="take-number"
            disabled={patch.isPending}
            onClick={() => send({ catalogue_number: r.suggested_catalogue_number })}
          >
            {T.takeNumber(r.suggested_catalogue_number)}
          </button>
        )}
        <Field label={T.date}>
          <input
            type="date"
            className="st-input"
            name="release_date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
        </Field>
        <Field label={T.titleField}>
          <input className="st-input" name="title" value={title} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label={T.version}>
          <input
            className="st-input"
            name="version"
            value={version}
            onChange={(e) => setVersion(e.target.value)}
          />
        </Field>
        <Field label={T.note}>
          <textarea className="st-textarea" name="note" value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
      </div>
      <button
        type="button"
        className="st-btn st-btn-primary"
        disabled={patch.isPending}
        onClick={() =>
          send({
            catalogue_number: catalogue.trim() || null,
            release_date: date || null,
            title: title.trim() || null,
            version: version.trim() || null,
            note: note.trim() || null,
          })}
      >
        {T.save}
      </button>
    </section>
  );
}

export function AdminReleasePage() {
  return <StaffReleasePage panel="admin" />;
}

export function ModeratorReleasePage() {
  return <StaffReleasePage panel="moderator" />;
}
