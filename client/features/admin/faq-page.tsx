/** Управление FAQ (placeholder until its issue fills it in). */
export function AdminFaqPage() {
  return (
    <section className="page">
      <h1>Управление FAQ</h1>
    </section>
  );
}
