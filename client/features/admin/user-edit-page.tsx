import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { type Direction, DIRECTIONS, GENRES } from "../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../../domain/staff-directions.ts";
import { USER_TEXTS } from "../../../domain/user.ts";
import { Field } from "../../components/ui/field.tsx";
import { ConfirmDialog } from "../../components/ui/modal.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { useRedirectAfter } from "../../components/ui/use-redirect-after.ts";
import { errorText } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth.ts";
import { usersListPlace } from "./users-list-search.ts";
import { adminUserQuery, useCreateAdminUser, useUpdateAdminUser } from "./users-api.ts";
import {
  buildCreatePayload,
  buildUpdatePayload,
  confirmationsNeeded,
  emptyUserForm,
  hasErrors,
  setAdmin,
  setAllCategories,
  setBanned,
  setModerator,
  toggleCategory,
  type UserFormErrors,
  type UserFormState,
  userToForm,
  validateUserForm,
} from "./user-form.ts";

type TextKey = Exclude<keyof UserFormState, "is_banned" | "is_admin" | "is_moderator" | "categories">;

export function AdminUserEditPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const userId = id ? Number(id) : null;
  const isNew = userId === null;
  useDocumentTitle("Редактирование пользователя");
  const me = useAuth().user;
  const selfEdit = !isNew && me?.id === userId;
  const create = useCreateAdminUser();
  const updateUser = useUpdateAdminUser();
  const redirect = useRedirectAfter();
  const query = useQuery({ ...adminUserQuery(userId ?? 0), enabled: !isNew });

  const [form, setForm] = useState<UserFormState | null>(isNew ? emptyUserForm() : null);
  const [original, setOriginal] = useState<UserFormState | null>(null);
  const savedCategories = useRef<Direction[] | "*">([]);
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Array<"ban" | "demote"> | null>(null);

  useEffect(() => {
    if (isNew || form || !query.data) return;
    const loaded = userToForm(query.data);
    savedCategories.current = loaded.categories;
    setForm(loaded);
    setOriginal(loaded);
  }, [isNew, form, query.data]);

  const update = (next: UserFormState) => {
    setForm(next);
    if (Object.keys(errors).length) setErrors(validateUserForm(next, selfEdit));
  };

  const save = async (state: UserFormState) => {
    setSaving(true);
    setServerError(null);
    setSuccess(null);
    try {
      if (isNew) {
        await create.mutateAsync(buildCreatePayload(state));
        setSuccess("Пользователь успешно добавлен");
        redirect("/admin/users", undefined, usersListPlace());
      } else {
        const body = await updateUser.mutateAsync({ id: userId, body: buildUpdatePayload(state) });
        const saved = userToForm(body.user);
        setForm(saved);
        setOriginal(saved);
        // An empty answer keeps the earlier choice for a later re-check of "moderator".
        if (saved.categories === "*" || saved.categories.length > 0) savedCategories.current = saved.categories;
        setSuccess("Пользователь успешно сохранен");
      }
    } catch (err) {
      setServerError(errorText(err, "Не удалось сохранить пользователя"));
    } finally {
      setSaving(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form || saving) return;
    const found = validateUserForm(form, selfEdit);
    setErrors(found);
    if (hasErrors(found)) return;
    const asks = confirmationsNeeded(original, form);
    if (asks.length) setConfirming(asks);
    else void save(form);
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>{isNew ? "Новый пользователь" : "Редактирование пользователя"}</h1>
        <Link to="/admin/users" search={usersListPlace()} className="st-btn">← К списку пользователей</Link>
      </div>
      {!isNew && query.isPending && <p className="st-muted">Загрузка...</p>}
      {!isNew && query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить данные пользователя")}
        </div>
      )}
      {form && (
        <UserForm
          form={form}
          onChange={update}
          errors={errors}
          selfEdit={selfEdit}
          isNew={isNew}
          saving={saving}
          savedCategories={savedCategories}
          onSubmit={submit}
          banner={
            <>
              {success && <div className="st-alert st-alert-success" role="status">{success}</div>}
              {serverError && <div className="st-alert st-alert-error" role="alert">{serverError}</div>}
              {errors.general && <div className="st-alert st-alert-error" role="alert">{errors.general}</div>}
            </>
          }
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Подтверждение"
        danger
        message={
          <>
            {confirming?.includes("ban") && (
              <span style={{ display: "block" }}>{USER_TEXTS.banQuestion(form?.username ?? "")}</span>
            )}
            {confirming?.includes("demote") && <span style={{ display: "block" }}>{USER_TEXTS.demoteQuestion}</span>}
          </>
        }
        warning={
          <>
            {confirming?.includes("ban") && <span style={{ display: "block" }}>{USER_TEXTS.banWarning}</span>}
            {confirming?.includes("demote") && <span style={{ display: "block" }}>{USER_TEXTS.demoteWarning}</span>}
          </>
        }
        confirmLabel="Продолжить"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          setConfirming(null);
          if (form) void save(form);
        }}
      />
    </section>
  );
}

interface UserFormProps {
  form: UserFormState;
  onChange: (next: UserFormState) => void;
  errors: UserFormErrors;
  selfEdit: boolean;
  isNew: boolean;
  saving: boolean;
  savedCategories: { current: Direction[] | "*" };
  onSubmit: (e: FormEvent) => void;
  banner: ReactNode;
}

function UserForm(
  { form, onChange, errors, selfEdit, isNew, saving, savedCategories, onSubmit, banner }: UserFormProps,
) {
  const id = useId();
  const text = (
    key: TextKey,
    label: string,
    opts: { type?: string; wide?: boolean; error?: string; required?: boolean } = {},
  ) => (
    <div className={opts.wide ? "st-field st-wide" : "st-field"}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="st-input"
        type={opts.type ?? "text"}
        value={form[key]}
        required={opts.required}
        aria-invalid={Boolean(opts.error)}
        aria-describedby={opts.error ? `${id}-${key}-error` : undefined}
        onChange={(e) => onChange({ ...form, [key]: e.target.value })}
      />
      {opts.error && (
        <small className="st-hint" id={`${id}-${key}-error`} style={{ color: "var(--danger)" }}>{opts.error}</small>
      )}
    </div>
  );

  const toggleModerator = (checked: boolean) => {
    if (!checked && (form.categories === "*" || form.categories.length > 0)) savedCategories.current = form.categories;
    onChange(setModerator(form, checked, savedCategories.current));
  };

  const banLocked = form.is_admin || selfEdit;
  return (
    <form onSubmit={onSubmit} noValidate>
      {banner}
      <div className="st-section">
        <h2>Основная информация</h2>
        <div className="st-form-grid">
          {text("username", "Имя пользователя", { error: errors.username, required: true })}
          {text("email", "Email", { type: "email", error: errors.email })}
          {text("first_name", "Имя")}
          {text("last_name", "Фамилия")}
          {text("phone_number", "Телефон", { type: "tel" })}
        </div>
      </div>

      <div className="st-section">
        <h2>Статус</h2>
        <label className={banLocked ? "st-check st-check-disabled" : "st-check"}>
          <input
            type="checkbox"
            checked={form.is_banned}
            disabled={banLocked}
            onChange={(e) => onChange(setBanned(form, e.target.checked))}
          />
          <span>Заблокирован</span>
        </label>
        {selfEdit
          ? <p className="st-hint">{USER_TEXTS.selfBan}</p>
          : form.is_admin && <p className="st-hint">{USER_TEXTS.banAdmin}</p>}
      </div>

      <div className="st-section">
        <h2>Роли</h2>
        <div className="st-stack">
          <div>
            <label className={selfEdit ? "st-check st-check-disabled" : "st-check"}>
              <input
                type="checkbox"
                checked={form.is_admin}
                disabled={selfEdit}
                onChange={(e) => onChange(setAdmin(form, e.target.checked))}
              />
              <span>Администратор</span>
            </label>
            {selfEdit && <p className="st-hint" style={{ margin: "4px 0 0 24px" }}>{USER_TEXTS.selfDemote}</p>}
          </div>
          <div>
            <label className="st-check">
              <input type="checkbox" checked={form.is_moderator} onChange={(e) => toggleModerator(e.target.checked)} />
              <span>Модератор</span>
            </label>
            {form.is_moderator && (
              <fieldset className="st-fieldset st-category-picker">
                <legend className="st-label" style={{ float: "left", width: "100%", marginBottom: 8 }}>
                  Категории модерации
                </legend>
                <label className="st-check" style={{ marginBottom: 10, clear: "both" }}>
                  <input
                    type="checkbox"
                    checked={form.categories === "*"}
                    onChange={(e) => onChange(setAllCategories(form, e.target.checked))}
                  />
                  <span>Все категории (*)</span>
                </label>
                <div className="st-checks">
                  {DIRECTIONS.map((d) => (
                    <label key={d} className="st-check">
                      <input
                        type="checkbox"
                        value={d}
                        checked={form.categories !== "*" && form.categories.includes(d)}
                        onChange={() => onChange(toggleCategory(form, d))}
                      />
                      <span>{ADMIN_DIRECTION_LABELS[d]}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          </div>
        </div>
      </div>

      <div className="st-section">
        <h2>Социальные сети</h2>
        <div className="st-form-grid">
          {text("vk_id", "VK ID")}
          {text("telegram_id", "Telegram ID")}
          {text("telegram_hash", "Telegram hash", { wide: true })}
        </div>
      </div>

      <div className="st-section">
        <h2>Профиль</h2>
        <div className="st-form-grid">
          {text("birth_date", "Дата рождения", { type: "date" })}
          {text("city", "Город")}
          <Field label="Любимый жанр drum and bass" className="st-wide">
            <select
              className="st-select"
              value={form.favorite_dnb_genre}
              onChange={(e) => onChange({ ...form, favorite_dnb_genre: e.target.value })}
            >
              <option value="">Не выбран</option>
              {GENRES.map((g) => <option key={g} value={g}>{g}</option>)}
            </select>
          </Field>
          {/* The error under the field, read out as its description (not inside the label's name). */}
          <div className="st-field st-wide">
            <label htmlFor={`${id}-bio`}>О себе</label>
            <textarea
              id={`${id}-bio`}
              className="st-textarea"
              rows={4}
              value={form.bio}
              aria-invalid={Boolean(errors.bio)}
              aria-describedby={errors.bio ? `${id}-bio-error` : undefined}
              onChange={(e) => onChange({ ...form, bio: e.target.value })}
            />
            {errors.bio && (
              <small className="st-hint" id={`${id}-bio-error`} style={{ color: "var(--danger)" }}>{errors.bio}</small>
            )}
          </div>
        </div>
      </div>

      <div className="st-form-actions">
        <Link to="/admin/users" search={usersListPlace()} className="st-btn">Отмена</Link>
        <button type="submit" className="st-btn st-btn-primary" disabled={saving}>
          {saving ? "Сохранение..." : isNew ? "Создать пользователя" : "Сохранить"}
        </button>
      </div>
    </form>
  );
}
