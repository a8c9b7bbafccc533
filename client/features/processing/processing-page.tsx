/** Обработка треков (placeholder until its issue fills it in). */
export function ProcessingPage() {
  return (
    <section className="page">
      <h1>Обработка треков</h1>
    </section>
  );
}
