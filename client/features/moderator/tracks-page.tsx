/** Manage Tracks (placeholder until its issue fills it in). */
export function ModeratorTracksPage() {
  return (
    <section className="page">
      <h1>Manage Tracks</h1>
    </section>
  );
}
