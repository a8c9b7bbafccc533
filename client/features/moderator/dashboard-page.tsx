/** Dashboard (placeholder until its issue fills it in). */
export function ModeratorDashboardPage() {
  return (
    <section className="page">
      <h1>Dashboard</h1>
    </section>
  );
}
