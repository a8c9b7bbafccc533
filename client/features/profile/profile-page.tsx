import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { auth, useAuth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { formatDateTime, formatDuration } from "../../lib/format.ts";
import { audioWarningText } from "../../../domain/audio-warnings.ts";
import { myTracksQuery } from "./api.ts";
import { Avatar } from "./avatar.tsx";
import { LinkTelegramForm, useTelegramLinkArrival } from "./link-telegram-form.tsx";
import { LinkVkForm } from "./link-vk-form.tsx";
import { formatBirthDate, fullName, PROFILE_TEXTS } from "./profile-rules.ts";

/** The signed-in user's profile and their uploaded tracks (spec 1 §2 "/profile"). */
export function ProfilePage() {
  const { user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const tracks = useQuery({ ...myTracksQuery, enabled: isAuthenticated });
  // A Telegram link's provider window comes back here with the result.
  useTelegramLinkArrival();

  // Signing out here (or a session that ends) leaves nothing to show.
  useEffect(() => {
    if (!isAuthenticated) navigate({ to: "/login" });
  }, [isAuthenticated]);

  if (!user) {
    return (
      <section className="page">
        <h1>Профиль</h1>
        {isAuthenticated && <div className="alert alert-error" role="alert">{PROFILE_TEXTS.loadFailed}</div>}
      </section>
    );
  }

  const logout = async () => {
    await auth.logout();
    flash("success", "Вы успешно вышли из системы.");
  };

  const details: Array<[string, string | null | undefined]> = [
    ["Город", user.city],
    ["Дата рождения", formatBirthDate(user.birth_date)],
    ["Любимое направление", user.favorite_dnb_genre],
    ["VK ID", user.vk_id],
    ["Telegram ID", user.telegram_id],
    ["Телефон", user.phone_number],
  ];

  return (
    <section className="page">
      <div className="card">
        <div className="profile-head">
          <Avatar user={user} />
          <div className="stack" style={{ gap: 4, minWidth: 0, flex: 1 }}>
            <div className="row" style={{ gap: 10 }}>
              <h1 className="profile-name">{fullName(user)}</h1>
              {user.is_admin && <span className="badge badge-accent">Администратор</span>}
            </div>
            <span className="profile-username">@{user.username}</span>
          </div>
        </div>
        <dl className="details">
          {details.map(([label, value]) => (
            <div key={label} style={{ display: "contents" }}>
              <dt>{label}</dt>
              <dd className={value ? undefined : "muted"}>{value || "Не указано"}</dd>
            </div>
          ))}
        </dl>
        <div className="section">
          <h2 className="label" style={{ fontSize: 14, color: "var(--muted)", fontWeight: 400, margin: "0 0 4px" }}>
            О себе
          </h2>
          <p className={user.bio ? "bio" : "bio muted"} style={{ margin: 0 }}>{user.bio || "Пока ничего не рассказали о себе."}</p>
        </div>
        {user.telegram_id && !user.vk_id && <LinkVkForm />}
        {user.vk_id && !user.telegram_id && <LinkTelegramForm />}
        <div className="form-actions section">
          <Link to="/profile/edit" className="btn btn-primary">Редактировать профиль</Link>
          <button type="button" className="btn btn-ghost" onClick={logout}>Выйти</button>
        </div>
      </div>

      <section className="card" aria-labelledby="my-tracks-title">
        <h2 id="my-tracks-title">Мои треки</h2>
        {tracks.isPending && <p className="muted" role="status">Загружаем треки…</p>}
        {tracks.isError && <div className="alert alert-error" role="alert">{PROFILE_TEXTS.tracksFailed}</div>}
        {tracks.data && tracks.data.length === 0 && (
          <div className="empty">
            <strong>Вы ещё не загрузили ни одного трека</strong>
            <p>{PROFILE_TEXTS.emptyHint}</p>
            <Link to="/" className="btn btn-primary">Отправить трек</Link>
          </div>
        )}
        {tracks.data && tracks.data.length > 0 && (
          <ul className="track-list">
            {tracks.data.map((t) => (
              <li key={t.id} className="track-item" data-testid="my-track">
                <div style={{ minWidth: 0, flex: 1 }}>
                  <div className="track-title">{t.filename}</div>
                  <div className="track-date">{formatDateTime(t.upload_date)}</div>
                  {/* Issue 12: the artist sees the length, bitrate and warnings of their own tracks. */}
                  {t.analysis && (
                    <div className="track-date" data-testid="my-track-figures">
                      {formatDuration(t.analysis.duration_s)} · {Math.round(t.analysis.bitrate_kbps)} kbps
                    </div>
                  )}
                  {t.analysis && t.analysis.warnings.length > 0 && (
                    <ul className="track-warnings" aria-label="Предупреждения">
                      {t.analysis.warnings.map((w) => <li key={w} className="badge badge-warning">{audioWarningText(w)}</li>)}
                    </ul>
                  )}
                </div>
                {t.downloaded
                  ? <span className="badge badge-success">{PROFILE_TEXTS.downloaded}</span>
                  : <span className="badge badge-warning">{PROFILE_TEXTS.processing}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
