/** Готово (placeholder until its issue fills it in). */
export function SuccessPage() {
  return (
    <section className="page">
      <h1>Готово</h1>
    </section>
  );
}
