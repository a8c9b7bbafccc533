/** Ошибка (placeholder until its issue fills it in). */
export function ErrorPage() {
  return (
    <section className="page">
      <h1>Ошибка</h1>
    </section>
  );
}
