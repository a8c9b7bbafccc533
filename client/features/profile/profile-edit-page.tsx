/** Редактирование профиля (placeholder until its issue fills it in). */
export function ProfileEditPage() {
  return (
    <section className="page">
      <h1>Редактирование профиля</h1>
    </section>
  );
}
