/** The uploader's guidance (spec 1 §1), shown beside the form. */
export function RequirementsBox() {
  return (
    <aside className="requirements" aria-labelledby="requirements-title">
      <h2 id="requirements-title">Требования к трекам</h2>
      <ul>
        <li>
          <strong>Только drum&bass</strong> и его поджанры. За треки других стилей аккаунт блокируется.
        </li>
        <li>
          В имени артиста <strong>не должно быть ID</strong>.
        </li>
        <li>
          Имя файла — всегда через пробел-дефис-пробел: <code>Артист - Название.mp3</code>
        </li>
        <li>
          Треки, созданные <strong>нейросетями (ИИ)</strong>, ведут к блокировке.
        </li>
        <li>Формат — MP3, лучше всего 320 kbps.</li>
      </ul>
    </aside>
  );
}
