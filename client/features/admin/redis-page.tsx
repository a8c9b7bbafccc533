/** Управление Redis (placeholder until its issue fills it in). */
export function AdminRedisPage() {
  return (
    <section className="page">
      <h1>Управление Redis</h1>
    </section>
  );
}
