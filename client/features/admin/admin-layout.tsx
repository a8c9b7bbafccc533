import { StaffLayout, type StaffNavItem } from "../../components/staff-layout.tsx";

const NAV: StaffNavItem[] = [
  { to: "/admin", label: "Панель управления", exact: true },
  { to: "/admin/tracks", label: "Треки" },
  { to: "/admin/intake", label: "Приём треков" },
  { to: "/admin/episodes", label: "Выпуски" },
  { to: "/admin/releases", label: "Релизы" },
  { to: "/admin/faq", label: "FAQ" },
  { to: "/admin/slider", label: "Слайдер" },
  { to: "/admin/users", label: "Пользователи" },
  { to: "/admin/decline-templates", label: "Шаблоны сообщений" },
  { to: "/admin/redis", label: "Redis" },
];

/** The admin area frame: sidebar with every section, back to the site, logout (spec 2 §2). */
export function AdminLayout() {
  return (
    <StaffLayout
      title="Админка"
      nav={NAV}
      backLabel="← На сайт"
      logoutLabel="Выход"
    />
  );
}
