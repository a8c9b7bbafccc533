/** Профиль (placeholder until its issue fills it in). */
export function ProfilePage() {
  return (
    <section className="page">
      <h1>Профиль</h1>
    </section>
  );
}
