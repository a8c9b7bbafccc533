/** Вход в систему (placeholder until its issue fills it in). */
export function LoginPage() {
  return (
    <section className="page">
      <h1>Вход в систему</h1>
    </section>
  );
}
