/** Управление треками (placeholder until its issue fills it in). */
export function AdminTracksPage() {
  return (
    <section className="page">
      <h1>Управление треками</h1>
    </section>
  );
}
