/** Edit Track (placeholder until its issue fills it in). */
export function ModeratorTrackEditPage() {
  return (
    <section className="page">
      <h1>Edit Track</h1>
    </section>
  );
}
