/** Редактирование трека (placeholder until its issue fills it in). */
export function AdminTrackEditPage() {
  return (
    <section className="page">
      <h1>Редактирование трека</h1>
    </section>
  );
}
