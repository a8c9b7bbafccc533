import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { CrossIcon } from "../../components/icons.tsx";
import { useAuth } from "../../lib/auth.ts";
import { batchErrorsQuery } from "./api.ts";

export const ERROR_DEFAULT = "Что-то пошло не так...";
export const ERROR_LOAD_FAILED = "Не удалось получить информацию об ошибке";

/**
 * The error page: the message it was given, else the errors of the user's last batch, else the
 * default text.
 */
export function ErrorPage() {
  const { message } = useSearch({ strict: false }) as { message?: string };
  const { isAuthenticated } = useAuth();
  const errors = useQuery({ ...batchErrorsQuery, enabled: !message && isAuthenticated });

  let body: React.ReactNode = <p>{message || ERROR_DEFAULT}</p>;
  if (!message && errors.isError) body = <p>{ERROR_LOAD_FAILED}</p>;
  if (!message && errors.data && errors.data.length > 0) {
    body = (
      <ul className="alert alert-error" style={{ textAlign: "left", listStyle: "none", margin: 0 }}>
        {errors.data.map((e) => <li key={e}>{e}</li>)}
      </ul>
    );
  }

  return (
    <section className="page message-page">
      <span className="message-icon message-icon-error" aria-hidden="true">
        <CrossIcon size={34} />
      </span>
      <h1>Ошибка</h1>
      <div role="alert">{body}</div>
      <div className="cta-row">
        <Link to="/" className="btn btn-primary">На главную</Link>
        <Link to="/faq" className="btn">Частые вопросы</Link>
      </div>
    </section>
  );
}
