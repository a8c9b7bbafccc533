import { ClockIcon } from "../../components/icons.tsx";

/** Shown to everyone but administrators while maintenance mode is on (spec 2 "Maintenance mode"). */
export function MaintenancePage() {
  return (
    <section className="page message-page">
      <span className="message-icon message-icon-warning" aria-hidden="true">
        <ClockIcon size={34} />
      </span>
      <h1>Ведутся технические работы</h1>
      <p>Сайт временно недоступен. Пожалуйста, зайдите позже — мы скоро вернёмся.</p>
      <div className="cta-row">
        <button type="button" className="btn" onClick={() => location.assign("/")}>Проверить снова</button>
      </div>
    </section>
  );
}
