import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { CheckIcon } from "../../components/icons.tsx";
import { batchSuccessQuery } from "./api.ts";

export const SUCCESS_FALLBACK = "Операция завершена успешно";

/** The success page: the message it was given, else the last batch's success text, else the fallback. */
export function SuccessPage() {
  const { message } = useSearch({ strict: false }) as { message?: string };
  const success = useQuery({ ...batchSuccessQuery, enabled: !message });
  const text = message || success.data || SUCCESS_FALLBACK;

  return (
    <section className="page message-page">
      <span className="message-icon message-icon-success" aria-hidden="true">
        <CheckIcon size={34} />
      </span>
      <h1>Готово</h1>
      <p role="status">{text}</p>
      <div className="cta-row">
        <Link to="/" className="btn btn-primary">На главную</Link>
        <Link to="/profile" className="btn">В профиль</Link>
      </div>
    </section>
  );
}
