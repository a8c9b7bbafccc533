/** Edit FAQ (placeholder until its issue fills it in). */
export function ModeratorFaqEditPage() {
  return (
    <section className="page">
      <h1>Edit FAQ</h1>
    </section>
  );
}
