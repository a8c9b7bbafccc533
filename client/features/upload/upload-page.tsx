/** Отправить трек (placeholder until its issue fills it in). */
export function UploadPage() {
  return (
    <section className="page">
      <h1>Отправить трек</h1>
    </section>
  );
}
