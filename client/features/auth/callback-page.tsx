/** Авторизация (placeholder until its issue fills it in). */
export function AuthCallbackPage() {
  return (
    <section className="page">
      <h1>Авторизация</h1>
    </section>
  );
}
