/** Ведутся технические работы (placeholder until its issue fills it in). */
export function MaintenancePage() {
  return (
    <section className="page">
      <h1>Ведутся технические работы</h1>
    </section>
  );
}
