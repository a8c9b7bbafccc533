import { Link } from "@tanstack/react-router";
import { DIRECTION_LABELS, DIRECTIONS } from "../../../domain/directions.ts";

/** О нас (spec 1 §2): what the project is, the figures, and the way to the upload page and FAQ. */
export function AboutPage() {
  return (
    <section className="page">
      <div className="hero">
        <span className="eyebrow">О проекте</span>
        <h1>Нейропанк — лейбл и сообщество drum&bass</h1>
        <p className="page-lead">
          Мы издаём тяжёлый и мелодичный drum&bass, собираем подкасты и ведём эфиры. Этот сайт — прямой путь вашего
          трека к людям, которые решают, что прозвучит дальше.
        </p>
      </div>

      <div className="stats">
        <div className="stat">
          <div className="stat-value">500K</div>
          <div className="stat-label">слушателей</div>
        </div>
        <div className="stat">
          <div className="stat-value">1500+</div>
          <div className="stat-label">треков</div>
        </div>
      </div>

      <div className="prose">
        <h2>Как это работает</h2>
        <ul className="feature-list">
          <li>
            <strong>Вы присылаете MP3</strong> и выбираете, куда он должен попасть: на лейбл, в подкаст или в эфир шоу.
          </li>
          <li>
            <strong>Сервис проверяет файл</strong>{" "}
            — формат, битрейт, длительность — и передаёт трек модераторам выбранных направлений.
          </li>
          <li>
            <strong>Модераторы слушают всё.</strong>{" "}
            Если трек подходит, с вами свяжутся через аккаунт, с которым вы вошли.
          </li>
        </ul>

        <h2>Направления</h2>
        <p>Один трек можно отправить сразу в несколько мест, если они не пересекаются по правилам лейблов:</p>
        <ul>
          {DIRECTIONS.map((d) => <li key={d}>{DIRECTION_LABELS[d]}</li>)}
        </ul>

        <h2>Что мы принимаем</h2>
        <p>
          Только drum&bass и его поджанры — от ликвида до нейрофанка и джангла. Треки, созданные нейросетями, и музыка
          других стилей ведут к блокировке аккаунта. Подробности — в <Link to="/faq">частых вопросах</Link>.
        </p>
      </div>

      <div className="cta-row">
        <Link to="/" className="btn btn-primary btn-lg">Отправить трек</Link>
        <Link to="/faq" className="btn btn-lg">Частые вопросы</Link>
      </div>
    </section>
  );
}
