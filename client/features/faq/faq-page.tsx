import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { PlusIcon } from "../../components/icons.tsx";
import { ApiError } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { faqQuery } from "./api.ts";

export const FAQ_LOAD_FAILED = "Не удалось загрузить FAQ. Пожалуйста, попробуйте позже.";

/** Questions and answers, one open at a time (spec 1 §2 "FAQ page"). */
export function FaqPage() {
  const faq = useQuery(faqQuery);
  const navigate = useNavigate();
  const [openId, setOpenId] = useState<number | null>(null);

  // A 403 here means the account is banned (spec 1 §6).
  useEffect(() => {
    const err = faq.error;
    if (err instanceof ApiError && err.status === 403) {
      auth.banned(String(err.body?.ban_reason ?? err.message));
      navigate({ to: "/login" });
    }
  }, [faq.error]);

  return (
    <section className="page">
      <span className="eyebrow">Помощь</span>
      <h1>Частые вопросы</h1>
      <p className="page-lead">
        Как прислать трек, что мы принимаем и что происходит дальше. Не нашли ответ — напишите нам в соцсетях лейбла.
      </p>

      {faq.isPending && <p className="muted" role="status">Загружаем вопросы…</p>}
      {faq.isError && <div className="alert alert-error" role="alert">{FAQ_LOAD_FAILED}</div>}
      {faq.data && faq.data.length === 0 && (
        <div className="card empty">
          <strong>Вопросов пока нет</strong>
        </div>
      )}

      {faq.data && faq.data.length > 0 && (
        <div className="accordion">
          {faq.data.map((entry) => {
            const open = openId === entry.id;
            const buttonId = `faq-q-${entry.id}`;
            const panelId = `faq-a-${entry.id}`;
            return (
              <div key={entry.id} className={open ? "acc-item acc-item-open" : "acc-item"}>
                <h2>
                  <button
                    type="button"
                    id={buttonId}
                    className="acc-button"
                    aria-expanded={open}
                    aria-controls={panelId}
                    onClick={() => setOpenId(open ? null : entry.id)}
                  >
                    <span>{entry.question}</span>
                    <PlusIcon className="icon acc-chevron" />
                  </button>
                </h2>
                <div
                  id={panelId}
                  role="region"
                  aria-labelledby={buttonId}
                  className="acc-panel"
                  hidden={!open}
                  // The server sanitises answers with an allow-list when staff save them.
                  dangerouslySetInnerHTML={{ __html: entry.answer }}
                />
              </div>
            );
          })}
        </div>
      )}

      <div className="cta-row">
        <Link to="/" className="btn btn-primary">Отправить трек</Link>
        <Link to="/about" className="btn">О нас</Link>
      </div>
    </section>
  );
}
