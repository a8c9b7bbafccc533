/** О нас (placeholder until its issue fills it in). */
export function AboutPage() {
  return (
    <section className="page">
      <h1>О нас</h1>
    </section>
  );
}
