/** Редактирование слайдера (placeholder until its issue fills it in). */
export function AdminSliderEditPage() {
  return (
    <section className="page">
      <h1>Редактирование слайдера</h1>
    </section>
  );
}
