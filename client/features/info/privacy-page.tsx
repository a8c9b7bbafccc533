import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";

export const PRIVACY_UPDATED = "21 апреля 2025 г.";
export const PRIVACY_LOAD_FAILED =
  "Не удалось загрузить документ. Проверьте подключение к интернету и попробуйте ещё раз.";

/** The policy's text: a document of the build (client/public), fetched when the page opens (decision 0431). */
export const PRIVACY_DOCUMENT = "/privacy-policy.html";

const privacyQuery = {
  queryKey: ["privacy-policy"],
  queryFn: async () => {
    const res = await fetch(PRIVACY_DOCUMENT);
    if (!res.ok) throw new Error(`${PRIVACY_DOCUMENT}: ${res.status}`);
    return res.text();
  },
  staleTime: Infinity,
  retry: false,
};

/**
 * Политика конфиденциальности и cookie; она же — условия использования (spec 1 §2: last updated
 * 21 April 2025). Written for what this service actually stores (see client/lib/storage-keys.ts and
 * db/schema.ts); update both together. The text is client/public/privacy-policy.html.
 */
export function PrivacyPage() {
  const doc = useQuery(privacyQuery);
  // The text arrives after the page: an address with #section is scrolled to once it is there.
  useEffect(() => {
    if (doc.data && location.hash) {
      document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    }
  }, [doc.data]);

  return (
    <section className="page">
      <span className="eyebrow">Документы</span>
      <h1>Политика конфиденциальности и условия использования</h1>
      <p className="updated">
        Последнее обновление: <time dateTime="2025-04-21">{PRIVACY_UPDATED}</time>
      </p>

      {doc.isPending && <p className="muted" role="status">Загружаем документ…</p>}
      {doc.isError && (
        <>
          <div className="alert alert-error" role="alert">{PRIVACY_LOAD_FAILED}</div>
          <button type="button" className="btn" onClick={() => doc.refetch()} disabled={doc.isFetching}>
            Повторить
          </button>
        </>
      )}
      {/* Our own document from the build, not user input. */}
      {doc.data && <div dangerouslySetInnerHTML={{ __html: doc.data }} />}

      <div className="cta-row">
        <Link to="/" className="btn btn-primary">Отправить трек</Link>
        <Link to="/faq" className="btn">Частые вопросы</Link>
      </div>
    </section>
  );
}
