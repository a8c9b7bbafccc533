/** Manage FAQ (placeholder until its issue fills it in). */
export function ModeratorFaqPage() {
  return (
    <section className="page">
      <h1>Manage FAQ</h1>
    </section>
  );
}
