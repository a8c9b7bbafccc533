/** Управление слайдером (placeholder until its issue fills it in). */
export function AdminSliderPage() {
  return (
    <section className="page">
      <h1>Управление слайдером</h1>
    </section>
  );
}
