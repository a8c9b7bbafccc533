import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { signOut, useAuth } from "../../lib/auth.ts";
import { Avatar } from "./avatar.tsx";
import { LinkTelegramForm, useTelegramLinkArrival } from "./link-telegram-form.tsx";
import { LinkVkForm, useVkLinkArrival } from "./link-vk-form.tsx";
import { MessageChannels } from "./message-channels.tsx";
import { formatBirthDate, fullName, PROFILE_TEXTS } from "./profile-rules.ts";
import { SubmissionHistory } from "./submission-history.tsx";

/** The signed-in user's profile and their uploaded tracks (spec 1 §2 "/profile"), grown into the submission history (issue 13). */
export function ProfilePage() {
  const { user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  // On the phone the card shows only the summary until opened, so the history starts on the first screen.
  const [open, setOpen] = useState(false);
  // A Telegram link's provider window comes back here with the result.
  useTelegramLinkArrival();
  useVkLinkArrival();

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
    await signOut();
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
      <div className={open ? "card profile-card profile-card-open" : "card profile-card"}>
        <div className="profile-head">
          <Avatar user={user} />
          <div className="stack" style={{ gap: 4, minWidth: 0, flex: 1 }}>
            <div className="row" style={{ gap: 10 }}>
              <h1 className="profile-name">{fullName(user)}</h1>
              {user.is_admin && <span className="badge badge-accent">Администратор</span>}
            </div>
            <span className="profile-username">@{user.username}</span>
            {/* Shown on the phone only (styles.css): the details below are folded there. */}
            <button
              type="button"
              className="btn btn-ghost profile-toggle"
              aria-expanded={open}
              aria-controls="profile-more"
              onClick={() => setOpen((v) => !v)}
            >
              {open ? PROFILE_TEXTS.hideDetails : PROFILE_TEXTS.showDetails}
            </button>
          </div>
        </div>
        <div id="profile-more" className="profile-more" data-testid="profile-more">
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
            <p className={user.bio ? "bio" : "bio muted"} style={{ margin: 0 }}>
              {user.bio || "Пока ничего не рассказали о себе."}
            </p>
          </div>
          {user.telegram_id && !user.vk_id && <LinkVkForm />}
          {user.vk_id && !user.telegram_id && <LinkTelegramForm />}
          <MessageChannels hasTelegram={Boolean(user.telegram_id)} />
        </div>
        <div className="form-actions section profile-actions">
          <Link to="/profile/edit" className="btn btn-primary">Редактировать профиль</Link>
          <button type="button" className="btn btn-ghost" onClick={logout}>Выйти</button>
        </div>
      </div>

      <section className="card" aria-labelledby="my-tracks-title">
        <h2 id="my-tracks-title">Мои треки</h2>
        <SubmissionHistory enabled={isAuthenticated} />
      </section>
    </section>
  );
}
