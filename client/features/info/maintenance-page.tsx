import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { ClockIcon } from "../../components/icons.tsx";
import { configQuery } from "../../lib/config-query.ts";

/** Shown to everyone but administrators while maintenance mode is on (spec 2 "Maintenance mode"). */
export function MaintenancePage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [checking, setChecking] = useState(false);

  // Asks the server again instead of going to / and being sent straight back: the screen only
  // leaves once maintenance is over (docs/decisions/0090-maintenance-mode-on-the-server.md).
  const recheck = async () => {
    setChecking(true);
    try {
      const config = await queryClient.fetchQuery({ ...configQuery, staleTime: 0 });
      if (!config.maintenance) await navigate({ to: "/" });
    } catch {
      // No answer: still unavailable, the screen stays.
    } finally {
      setChecking(false);
    }
  };

  return (
    <section className="page message-page">
      <span className="message-icon message-icon-warning" aria-hidden="true">
        <ClockIcon size={34} />
      </span>
      <h1>Ведутся технические работы</h1>
      <p>Сайт временно недоступен. Пожалуйста, зайдите позже — мы скоро вернёмся.</p>
      <div className="cta-row">
        <button type="button" className="btn" onClick={recheck} disabled={checking} aria-busy={checking}>
          Проверить снова
        </button>
      </div>
    </section>
  );
}
