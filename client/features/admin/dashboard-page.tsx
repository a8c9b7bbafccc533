/** Панель управления (placeholder until its issue fills it in). */
export function AdminDashboardPage() {
  return (
    <section className="page">
      <h1>Панель управления</h1>
    </section>
  );
}
