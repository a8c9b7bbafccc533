import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { ConfirmDialog, Modal } from "../../components/ui/modal.tsx";
import { Pagination } from "../../components/ui/pagination.tsx";
import { Toast, useToast } from "../../components/ui/toast.tsx";
import { useDebouncedValue } from "../../components/ui/use-debounced-value.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth.ts";
import {
  type AdminUser,
  adminUsersQuery,
  useAdminUserAction,
  useCreateAdminUser,
  type UserListParams,
} from "./users-api.ts";
import { banRefusal } from "../../../domain/ban-rules.ts";
import { displayRole, type Role, USER_TEXTS } from "../../../domain/user.ts";
import { parseUsersListSearch, rememberUsersListPlace, type UsersListSearch } from "./users-list-search.ts";
import { buildCreatePayload, emptyUserForm, type UserFormState, validateUserForm } from "./user-form.ts";

export const USERS_PAGE_SIZE = 10;
const ROLE_BADGES: Record<Role, { label: string; className: string }> = {
  admin: { label: "Админ", className: "st-badge st-badge-accent" },
  moderator: { label: "Модератор", className: "st-badge st-badge-warning" },
  user: { label: "Пользователь", className: "st-badge" },
};
export const USERS_SEARCH_DEBOUNCE_MS = 300;
export const USERS_TOAST_MS = 5000;

type Pending = { kind: "ban" | "delete"; user: AdminUser };

export function fullName(u: Pick<AdminUser, "first_name" | "last_name">): string {
  return [u.first_name, u.last_name].filter((s) => s && s.trim()).join(" ") || "—";
}

export function AdminUsersPage() {
  useDocumentTitle("Пользователи");
  const me = useAuth().user;
  const { toast, show, hide } = useToast(USERS_TOAST_MS);
  const userAction = useAdminUserAction();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState(false);

  // The search, filters and page live in the address (users-list-search.ts, decision 0211): a select
  // or the page adds a history entry; typing replaces the current one once it has settled. While the
  // router moves to another page this one may render with that page's address: it keeps its own.
  const navigate = useNavigate();
  const here = useLocation({ select: (l) => l.pathname }).replace(/\/+$/, "") === "/admin/users";
  const rawSearch = useSearch({ strict: false });
  const ownSearch = useRef(rawSearch);
  if (here) ownSearch.current = rawSearch;
  const place = parseUsersListSearch(ownSearch.current);
  const status: UserListParams["status"] = place.status ?? "all";
  const role: UserListParams["role"] = place.role ?? "all";
  const page = place.page ?? 1;
  const go = (next: UsersListSearch, replace = false) => {
    if (here) void navigate({ to: ".", search: parseUsersListSearch(next) as never, replace });
  };
  const setFilter = (next: Partial<UsersListSearch>) => go({ ...place, ...next, page: undefined });
  const setPage = (p: number) => go({ ...place, page: p });

  // The search box shows what is typed at once; the address (and so the list) follows once typing has
  // settled. `pushed` is the text last written, so a change from elsewhere (Back, a link) is copied in.
  const [search, setSearch] = useState(place.search ?? "");
  const typed = useDebouncedValue(search, USERS_SEARCH_DEBOUNCE_MS);
  const pushed = useRef(search);
  useEffect(() => {
    if (typed === (place.search ?? "")) return;
    pushed.current = typed;
    go({ ...place, search: typed, page: undefined }, true);
  }, [typed]);
  useEffect(() => {
    const now = place.search ?? "";
    if (now === pushed.current) return;
    pushed.current = now;
    setSearch(now);
  }, [place.search]);

  // The way back from a user's edit page returns here, with what was typed.
  useEffect(() => rememberUsersListPlace({ ...place, search }), [JSON.stringify(place), search]);

  const query = useQuery(
    adminUsersQuery({ search: place.search ?? "", status, role, page, page_size: USERS_PAGE_SIZE }),
  );
  const list = query.data;
  // A page past the end (an old link, users deleted) becomes the last page there is.
  useEffect(() => {
    if (list && page > Math.max(1, list.pages)) go({ ...place, page: Math.max(1, list.pages) }, true);
  }, [list, page]);

  const run = async (action: () => Promise<unknown>, ok: string, fallback: string, secondary: string) => {
    setBusy(true);
    try {
      await action();
      show("success", ok);
    } catch (err) {
      show("error", errorText(err, fallback, secondary));
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const unban = (u: AdminUser) =>
    run(
      () => userAction.mutateAsync({ kind: "unban", id: u.id }),
      "Пользователь успешно разблокирован",
      "Ошибка при разблокировке пользователя",
      "Не удалось разблокировать пользователя",
    );

  const confirmPending = () => {
    if (!pending) return;
    const u = pending.user;
    if (pending.kind === "ban") {
      void run(
        () => userAction.mutateAsync({ kind: "ban", id: u.id }),
        "Пользователь успешно заблокирован",
        "Ошибка при блокировке пользователя",
        "Не удалось заблокировать пользователя",
      );
    } else {
      void run(
        () => userAction.mutateAsync({ kind: "delete", id: u.id }),
        "Пользователь успешно удален",
        "Ошибка при удалении пользователя",
        "Не удалось удалить пользователя",
      );
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление пользователями</h1>
        <div className="st-page-actions">
          <Link to="/admin/users/edit" className="st-btn">Полная форма</Link>
          <button type="button" className="st-btn st-btn-primary" onClick={() => setAdding(true)}>
            Добавить пользователя
          </button>
        </div>
      </div>

      <form className="st-filters st-filters-users" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Поиск">
          <input
            className="st-input"
            type="search"
            placeholder="Имя пользователя, имя, email или ID"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </Field>
        <Field label="Статус">
          <select
            className="st-select"
            value={status}
            onChange={(e) => {
              const v = e.target.value as UserListParams["status"];
              setFilter({ status: v === "all" ? undefined : v });
            }}
          >
            <option value="all">Все</option>
            <option value="active">Активные</option>
            <option value="banned">Заблокированные</option>
          </select>
        </Field>
        <Field label="Роль">
          <select
            className="st-select"
            value={role}
            onChange={(e) => {
              const v = e.target.value as UserListParams["role"];
              setFilter({ role: v === "all" ? undefined : v });
            }}
          >
            <option value="all">Все</option>
            <option value="admin">Администраторы</option>
            <option value="moderator">Модераторы</option>
            <option value="user">Пользователи</option>
          </select>
        </Field>
      </form>

      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Ошибка при получении списка пользователей", "Не удалось загрузить пользователей")}
        </div>
      )}
      {query.isPending && <p className="st-muted">Загрузка пользователей...</p>}

      {list && (
        <>
          <div className="st-table-wrap">
            <table className="st-table st-users-table">
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">Имя пользователя</th>
                  <th scope="col">Имя и фамилия</th>
                  <th scope="col">Email</th>
                  <th scope="col">Соцсети</th>
                  <th scope="col">Роль</th>
                  <th scope="col">Статус</th>
                  <th scope="col" className="st-col-actions">Действия</th>
                </tr>
              </thead>
              <tbody>
                {list.users.length === 0 && (
                  <tr>
                    <td colSpan={8} className="st-empty">Пользователи не найдены</td>
                  </tr>
                )}
                {list.users.map((u) => {
                  const isMe = me?.id === u.id;
                  const banRefused = banRefusal({ self: isMe, admin: u.is_admin });
                  const role = ROLE_BADGES[displayRole(u)];
                  return (
                    <tr key={u.id} className={u.is_banned ? "st-row-banned" : undefined} data-user-id={u.id}>
                      <td>{u.id}</td>
                      <td className="st-cell-text" style={{ fontWeight: 600 }}>{u.username}</td>
                      <td className="st-cell-text">{fullName(u)}</td>
                      <td className="st-cell-text">{u.email || "—"}</td>
                      <td>
                        <span className="st-badges">
                          {u.vk_id && <span className="st-badge st-badge-info">VK</span>}
                          {u.telegram_id && <span className="st-badge st-badge-info">TG</span>}
                          {!u.vk_id && !u.telegram_id && <span className="st-muted">—</span>}
                        </span>
                      </td>
                      <td>
                        <span className={role.className}>{role.label}</span>
                      </td>
                      <td>
                        {u.is_banned
                          ? <span className="st-badge st-badge-danger">Заблокирован</span>
                          : <span className="st-badge st-badge-success">Активен</span>}
                      </td>
                      <td className="st-col-actions">
                        <span className="st-actions">
                          <Link
                            to="/admin/users/$id/edit"
                            params={{ id: String(u.id) }}
                            className="st-btn st-btn-sm"
                            aria-label={`Изменить: ${u.username}`}
                          >
                            Изменить
                          </Link>
                          {u.is_banned
                            ? (
                              <button
                                type="button"
                                className="st-btn st-btn-sm"
                                disabled={isMe || busy}
                                onClick={() => void unban(u)}
                                aria-label={`Разблокировать: ${u.username}`}
                              >
                                Разблокировать
                              </button>
                            )
                            : (
                              <button
                                type="button"
                                className="st-btn st-btn-sm"
                                disabled={banRefused !== null || busy}
                                title={banRefused ?? undefined}
                                onClick={() => setPending({ kind: "ban", user: u })}
                                aria-label={`Заблокировать: ${u.username}`}
                              >
                                Заблокировать
                              </button>
                            )}
                          <button
                            type="button"
                            className="st-btn st-btn-sm st-btn-danger"
                            disabled={isMe || busy}
                            onClick={() => setPending({ kind: "delete", user: u })}
                            aria-label={`Удалить: ${u.username}`}
                          >
                            Удалить
                          </button>
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {list.pages > 1 && (
            <Pagination
              page={Math.min(page, list.pages)}
              pages={list.pages}
              onPageChange={setPage}
              pageInput={false}
              counts={{ shown: list.users.length, filtered: list.filtered, total: list.total }}
            />
          )}
        </>
      )}

      <AddUserModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          show("success", "Пользователь успешно добавлен");
        }}
      />

      <ConfirmDialog
        open={pending?.kind === "ban"}
        title="Блокировка пользователя"
        message={<>Вы уверены, что хотите заблокировать пользователя {pending?.user.username}?</>}
        warning={USER_TEXTS.banWarning}
        confirmLabel="Заблокировать"
        busyLabel="Блокировка..."
        busy={busy}
        onConfirm={confirmPending}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={pending?.kind === "delete"}
        title="Удаление пользователя"
        message={<>Вы уверены, что хотите удалить пользователя {pending?.user.username}?</>}
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={busy}
        onConfirm={confirmPending}
        onCancel={() => setPending(null)}
      />
      <Toast toast={toast} onClose={hide} />
    </section>
  );
}

function AddUserModal({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const id = useId();
  const [form, setForm] = useState<UserFormState>(emptyUserForm);
  const [errors, setErrors] = useState<{ username?: string; email?: string }>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAdminUser();

  useEffect(() => {
    if (open) {
      setForm(emptyUserForm());
      setErrors({});
      setError(null);
    }
  }, [open]);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving) return;
    const { username, email } = validateUserForm(form);
    setErrors({ username, email });
    if (username || email) return;
    setSaving(true);
    setError(null);
    try {
      await create.mutateAsync(buildCreatePayload(form));
      onAdded();
    } catch (err) {
      setError(errorText(err, "Ошибка при добавлении пользователя", "Не удалось добавить пользователя"));
    } finally {
      setSaving(false);
    }
  };

  const field = (
    key: "username" | "email" | "first_name" | "last_name" | "phone_number",
    label: string,
    type = "text",
  ) => (
    <div className="st-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="st-input"
        type={type}
        value={form[key]}
        aria-invalid={Boolean(errors[key as "username" | "email"])}
        aria-describedby={errors[key as "username" | "email"] ? `${id}-${key}-error` : undefined}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
      {errors[key as "username" | "email"] && (
        <small className="st-hint" id={`${id}-${key}-error`} style={{ color: "var(--danger)" }}>
          {errors[key as "username" | "email"]}
        </small>
      )}
    </div>
  );

  return (
    <Modal
      open={open}
      title="Добавить пользователя"
      onClose={onClose}
      closeDisabled={saving}
      footer={
        <>
          <button type="button" className="st-btn" onClick={onClose} disabled={saving}>Отмена</button>
          <button type="button" className="st-btn st-btn-primary" onClick={() => void submit()} disabled={saving}>
            {saving ? "Сохранение..." : "Добавить"}
          </button>
        </>
      }
    >
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      <form className="st-form-grid" onSubmit={submit} noValidate>
        {field("username", "Имя пользователя")}
        {field("email", "Email", "email")}
        {field("first_name", "Имя")}
        {field("last_name", "Фамилия")}
        {field("phone_number", "Телефон", "tel")}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
