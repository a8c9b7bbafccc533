import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { GENRES } from "../../../domain/directions.ts";
import {
  AVATAR_TYPES,
  avatarProblem,
  BIO_MAX_LENGTH,
  bioTooLong as isBioTooLong,
  BIRTH_DATE_MIN,
  charCount,
  NAME_MAX_LENGTH,
} from "../../../domain/profile.ts";
import { CheckIcon } from "../../components/icons.tsx";
import { errorText } from "../../lib/api.ts";
import { useAuth, type User } from "../../lib/auth.ts";
import { useUpdateProfile } from "./api.ts";
import { Avatar } from "./avatar.tsx";
import { PROFILE_SAVED_BANNER_MS, PROFILE_TEXTS, todayIso } from "./profile-rules.ts";

/** The profile form (spec 1 §2 "/profile/edit"). */
export function ProfileEditPage() {
  const { user } = useAuth();
  if (!user) {
    return (
      <section className="page">
        <h1>Редактирование профиля</h1>
        <div className="alert alert-error" role="alert">{PROFILE_TEXTS.loadFailed}</div>
      </section>
    );
  }
  return <ProfileForm user={user} />;
}

function ProfileForm({ user }: { user: User }) {
  const [values, setValues] = useState({
    first_name: user.first_name ?? "",
    last_name: user.last_name ?? "",
    birth_date: user.birth_date ?? "",
    city: user.city ?? "",
    bio: user.bio ?? "",
    favorite_dnb_genre: user.favorite_dnb_genre ?? "",
  });
  const [avatar, setAvatar] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const update = useUpdateProfile();
  const savedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(savedTimer.current), []);
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  const set =
    (name: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [name]: e.target.value }));

  const pickAvatar = (file: File | undefined) => {
    setAvatarError(null);
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) {
      setAvatarError(problem);
      if (fileRef.current) fileRef.current.value = "";
      return;
    }
    setAvatar(file);
    setPreview(URL.createObjectURL(file));
  };

  const bioLength = charCount(values.bio);
  const bioTooLong = isBioTooLong(values.bio);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (saving || bioTooLong || avatarError) return;
    setSaving(true);
    setError(null);
    const form = new FormData();
    for (const [k, v] of Object.entries(values)) form.append(k, v);
    if (avatar) form.append("avatar", avatar, avatar.name);
    try {
      const body = await update.mutateAsync(form);
      setAvatar(null);
      if (fileRef.current) fileRef.current.value = "";
      setPreview(null);
      setSaved(true);
      clearTimeout(savedTimer.current);
      savedTimer.current = setTimeout(() => setSaved(false), PROFILE_SAVED_BANNER_MS);
      if (body.user) {
        setValues({
          first_name: body.user.first_name ?? "",
          last_name: body.user.last_name ?? "",
          birth_date: body.user.birth_date ?? "",
          city: body.user.city ?? "",
          bio: body.user.bio ?? "",
          favorite_dnb_genre: body.user.favorite_dnb_genre ?? "",
        });
      }
    } catch (err) {
      setError(errorText(err, PROFILE_TEXTS.updateFailed, PROFILE_TEXTS.updateError));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="page">
      <span className="eyebrow">Профиль</span>
      <h1>Редактирование профиля</h1>
      <p className="page-lead">Расскажите о себе — так лейблу проще понять, кто прислал трек.</p>

      <form className="card form" onSubmit={submit} noValidate>
        <div className="field">
          <span className="label" id="avatar-label">Аватар</span>
          <div className="avatar-field">
            <Avatar user={user} src={preview} small />
            <div className="stack" style={{ gap: 4 }}>
              <label className="btn file-button">
                <input
                  ref={fileRef}
                  id="avatar"
                  name="avatar"
                  type="file"
                  className="visually-hidden"
                  accept={AVATAR_TYPES.join(",")}
                  aria-labelledby="avatar-label"
                  aria-describedby="avatar-hint"
                  aria-invalid={Boolean(avatarError)}
                  onChange={(e) => pickAvatar(e.currentTarget.files?.[0])}
                />
                {user.avatar || avatar ? "Заменить изображение" : "Выбрать изображение"}
              </label>
              <span className="hint file-chosen">{avatar ? avatar.name : "Файл не выбран"}</span>
              <span className="hint" id="avatar-hint">JPG или PNG, до 5 МБ</span>
              {avatarError && <span className="hint-error" role="alert">{avatarError}</span>}
            </div>
          </div>
        </div>

        <div className="field-row">
          <div className="field">
            <label className="label" htmlFor="first_name">Имя</label>
            <input
              id="first_name"
              className="input"
              value={values.first_name}
              onChange={set("first_name")}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="given-name"
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="last_name">Фамилия</label>
            <input
              id="last_name"
              className="input"
              value={values.last_name}
              onChange={set("last_name")}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="family-name"
            />
          </div>
        </div>

        <div className="field-row">
          <div className="field">
            <label className="label" htmlFor="birth_date">Дата рождения</label>
            <input
              id="birth_date"
              type="date"
              className="input"
              value={values.birth_date}
              onChange={set("birth_date")}
              min={BIRTH_DATE_MIN}
              max={todayIso()}
              autoComplete="bday"
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="city">Город</label>
            <input
              id="city"
              className="input"
              value={values.city}
              onChange={set("city")}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="address-level2"
            />
          </div>
        </div>

        <div className="field">
          <label className="label" htmlFor="bio">О себе</label>
          <textarea
            id="bio"
            className="textarea"
            value={values.bio}
            onChange={set("bio")}
            aria-describedby="bio-counter"
            aria-invalid={bioTooLong}
          />
          <span
            id="bio-counter"
            className={bioLength >= BIO_MAX_LENGTH ? "counter counter-full" : "counter"}
            aria-live="polite"
          >
            {bioLength}/{BIO_MAX_LENGTH}
          </span>
          {bioTooLong && <span className="hint-error">{PROFILE_TEXTS.bioTooLong}</span>}
        </div>

        <div className="field">
          <label className="label" htmlFor="favorite_dnb_genre">Любимый жанр</label>
          <select
            id="favorite_dnb_genre"
            className="select"
            value={values.favorite_dnb_genre}
            onChange={set("favorite_dnb_genre")}
          >
            <option value="">Не выбран</option>
            {GENRES.map((g) => <option key={g} value={g}>{g}</option>)}
          </select>
        </div>

        {error && <div className="alert alert-error" role="alert">{error}</div>}
        {/* Beside the buttons, not above the form: on a phone the top of the form is off-screen. */}
        {saved && (
          <div className="alert alert-success row" role="status" data-testid="profile-saved">
            <CheckIcon /> {PROFILE_TEXTS.saved}
          </div>
        )}

        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving || bioTooLong}>
            {saving ? "Сохранение..." : "Сохранить"}
          </button>
          <Link to="/profile" className="btn btn-ghost">{saved ? "К профилю" : "Отмена"}</Link>
        </div>
      </form>
    </section>
  );
}
