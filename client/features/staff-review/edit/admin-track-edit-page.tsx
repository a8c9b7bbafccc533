import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { type FormEvent, useEffect, useId, useState } from "react";
import { type Direction, parseDirections } from "../../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS, formatDirections } from "../../../../domain/staff-directions.ts";
import { DirectionCheckboxes } from "./direction-checkboxes.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { useDocumentTitle } from "../../../components/ui/use-document-title.ts";
import { useRedirectAfter } from "../../../components/ui/use-redirect-after.ts";
import { trackListPlace } from "../queue/track-list-search.ts";
import { errorText } from "../../../lib/api.ts";
import { toDate, toDateTimeLocal } from "../../../lib/format.ts";
import { adminKeys } from "../../../lib/staff-queries.ts";
import { TrackVotes } from "../votes/track-votes.tsx";
import { adminTrackQuery, useSaveAdminTrack } from "../api/admin-tracks-api.ts";
import { DecisionPanel } from "./decision-panel.tsx";

interface TrackForm {
  filename: string;
  directions: Direction[];
  uploadDate: string;
  downloaded: boolean;
  userId: string;
  guestName: string;
}

export function AdminTrackEditPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const trackId = id ? Number(id) : null;
  const isNew = trackId === null;
  useDocumentTitle("Редактирование трека");
  const saveTrack = useSaveAdminTrack();
  const redirect = useRedirectAfter();
  const fid = useId();
  const query = useQuery({ ...adminTrackQuery(trackId ?? 0), enabled: !isNew });

  const [form, setForm] = useState<TrackForm>(() => ({
    filename: "",
    directions: [],
    uploadDate: toDateTimeLocal(new Date()),
    downloaded: false,
    userId: "",
    guestName: "",
  }));
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    const t = query.data;
    if (!t || loaded) return;
    setForm({
      filename: t.filename,
      directions: parseDirections(t.directions),
      uploadDate: toDateTimeLocal(t.upload_date),
      downloaded: Boolean(t.downloaded),
      userId: t.user_id === null || t.user_id === undefined ? "" : String(t.user_id),
      guestName: t.guest_username ?? "",
    });
    setLoaded(true);
  }, [query.data, loaded]);

  const set = (patch: Partial<TrackForm>) => setForm((f) => ({ ...f, ...patch }));
  const filenameError = form.filename.trim() === "" ? "Укажите имя файла" : null;
  const userIdError = form.userId.trim() !== "" && !/^\d+$/.test(form.userId.trim())
    ? "ID пользователя должен быть числом"
    : null;
  const directionsError = form.directions.length === 0 ? "Выберите хотя бы одно направление" : null;
  const invalid = Boolean(filenameError || userIdError || directionsError);
  const hasUser = form.userId.trim() !== "";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (invalid || saving) return;
    setSaving(true);
    setError(null);
    setSuccess(null);
    const payload = {
      filename: form.filename.trim(),
      user_id: hasUser ? Number(form.userId.trim()) : null,
      guest_username: hasUser ? null : form.guestName.trim() || null,
      upload_date: (toDate(form.uploadDate) ?? new Date()).toISOString(),
      directions: formatDirections(form.directions),
      downloaded: form.downloaded,
    };
    try {
      await saveTrack.mutateAsync({ id: trackId, body: payload });
      if (isNew) {
        setSuccess("Трек успешно добавлен");
        redirect("/admin/tracks", undefined, trackListPlace("/admin"));
      } else {
        setSuccess("Трек успешно сохранен");
      }
    } catch (err) {
      setError(errorText(err, "Не удалось сохранить трек", "Ошибка сохранения данных"));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>{isNew ? "Добавление трека" : "Редактирование трека"}</h1>
        <Link to="/admin/tracks" search={trackListPlace("/admin")} className="st-btn">← К списку треков</Link>
      </div>

      {!isNew && query.isPending && <p className="st-muted">Загрузка...</p>}
      {!isNew && query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить данные трека", "Ошибка загрузки данных")}
        </div>
      )}

      {(isNew || loaded) && (
        <form className="st-section" onSubmit={submit} noValidate>
          {success && <div className="st-alert st-alert-success" role="status">{success}</div>}
          {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
          <div className="st-form-grid">
            <div className="st-field st-wide">
              <label htmlFor={`${fid}-filename`}>Имя файла</label>
              <input
                id={`${fid}-filename`}
                className="st-input"
                value={form.filename}
                readOnly={!isNew}
                disabled={!isNew}
                required
                aria-invalid={touched && Boolean(filenameError)}
                aria-describedby={!isNew
                  ? `${fid}-filename-hint`
                  : touched && filenameError
                  ? `${fid}-filename-error`
                  : undefined}
                onChange={(e) => set({ filename: e.target.value })}
              />
              {!isNew && <small className="st-hint" id={`${fid}-filename-hint`}>Имя файла нельзя изменить</small>}
              {isNew && touched && filenameError && (
                <small className="st-hint" id={`${fid}-filename-error`} style={{ color: "var(--danger)" }}>
                  {filenameError}
                </small>
              )}
            </div>

            <div className="st-wide">
              <DirectionCheckboxes
                legend="Направления"
                value={form.directions}
                onChange={(directions) => set({ directions })}
                label={(d) => ADMIN_DIRECTION_LABELS[d]}
              />
              {touched && directionsError && (
                <small className="st-hint" style={{ color: "var(--danger)" }}>{directionsError}</small>
              )}
            </div>

            <Field label="Дата загрузки">
              <input
                className="st-input"
                type="datetime-local"
                value={form.uploadDate}
                disabled={!isNew}
                onChange={(e) => set({ uploadDate: e.target.value })}
              />
            </Field>

            <div className="st-field" style={{ justifyContent: "flex-end" }}>
              <label className="st-check">
                <input
                  type="checkbox"
                  checked={form.downloaded}
                  onChange={(e) => set({ downloaded: e.target.checked })}
                />
                <span>Скачан</span>
              </label>
            </div>

            <div className="st-field">
              <label htmlFor={`${fid}-user`}>ID пользователя</label>
              <input
                id={`${fid}-user`}
                className="st-input"
                inputMode="numeric"
                value={form.userId}
                aria-invalid={Boolean(userIdError)}
                aria-describedby={`${fid}-user-hint`}
                onChange={(e) => set({ userId: e.target.value })}
              />
              <small
                className="st-hint"
                id={`${fid}-user-hint`}
                style={userIdError ? { color: "var(--danger)" } : undefined}
              >
                {userIdError ?? "Оставьте пустым для гостевого трека"}
              </small>
            </div>

            <div className="st-field">
              <label htmlFor={`${fid}-guest`}>Имя гостя</label>
              <input
                id={`${fid}-guest`}
                className="st-input"
                value={form.guestName}
                disabled={hasUser}
                aria-describedby={hasUser ? `${fid}-guest-hint` : undefined}
                onChange={(e) => set({ guestName: e.target.value })}
              />
              {hasUser && (
                <small className="st-hint" id={`${fid}-guest-hint`}>Недоступно, когда указан ID пользователя</small>
              )}
            </div>
          </div>
          <div className="st-form-actions">
            <Link to="/admin/tracks" search={trackListPlace("/admin")} className="st-btn">Отмена</Link>
            <button type="submit" className="st-btn st-btn-primary" disabled={saving || (touched && invalid)}>
              {saving ? "Сохранение..." : isNew ? "Создать трек" : "Сохранить"}
            </button>
          </div>
        </form>
      )}
      {!isNew && query.data && (
        <TrackVotes
          base="/admin"
          tracksKey={adminKeys.tracks}
          trackId={query.data.id}
          label={(d) => ADMIN_DIRECTION_LABELS[d]}
        />
      )}
      {!isNew && query.data && (
        <DecisionPanel
          base="/admin"
          tracksKey={adminKeys.tracks}
          track={query.data}
          label={(d) => ADMIN_DIRECTION_LABELS[d]}
          canDecide={() => true}
        />
      )}
    </section>
  );
}
