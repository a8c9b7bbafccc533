/** Редактирование FAQ (placeholder until its issue fills it in). */
export function AdminFaqEditPage() {
  return (
    <section className="page">
      <h1>Редактирование FAQ</h1>
    </section>
  );
}
