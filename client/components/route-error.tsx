import { ErrorComponent, type ErrorComponentProps, useRouter } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError, errorText, NO_RESPONSE } from "../lib/api.ts";
import { CrossIcon } from "./icons.tsx";

/**
 * What a page shows when its route could not load because the server did not answer (a guard's
 * account check, spec 1 §8 "No response: No response from server"). The address stays, so
 * "Повторить" or a reload tries again. Other errors keep the router's own screen.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const [retrying, setRetrying] = useState(false);
  if (!(error instanceof ApiError)) return <ErrorComponent error={error} />;
  // Status 0 is no answer at all (offline, time-out); a failing server says what failed.
  const message = errorText(error, error.message || NO_RESPONSE, NO_RESPONSE);
  const retry = async () => {
    setRetrying(true);
    try {
      await router.invalidate();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <section className="page message-page">
      <span className="message-icon message-icon-error" aria-hidden="true">
        <CrossIcon size={34} />
      </span>
      <h1>Ошибка</h1>
      <p role="alert">{message}</p>
      <div className="cta-row">
        <button type="button" className="btn btn-primary" onClick={() => void retry()} disabled={retrying}>
          Повторить
        </button>
      </div>
    </section>
  );
}
