/** Пользователи (placeholder until its issue fills it in). */
export function AdminUsersPage() {
  return (
    <section className="page">
      <h1>Пользователи</h1>
    </section>
  );
}
