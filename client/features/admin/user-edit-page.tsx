/** Редактирование пользователя (placeholder until its issue fills it in). */
export function AdminUserEditPage() {
  return (
    <section className="page">
      <h1>Редактирование пользователя</h1>
    </section>
  );
}
