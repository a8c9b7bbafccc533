/** FAQ (placeholder until its issue fills it in). */
export function FaqPage() {
  return (
    <section className="page">
      <h1>FAQ</h1>
    </section>
  );
}
