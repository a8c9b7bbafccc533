/** Политика конфиденциальности (placeholder until its issue fills it in). */
export function PrivacyPage() {
  return (
    <section className="page">
      <h1>Политика конфиденциальности</h1>
    </section>
  );
}
