import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { FaqEditModal, useFaqCrud } from "../../components/faq-editor/faq-crud.tsx";
import { answerToText, formatAnswer, truncateAnswer } from "../../components/faq-editor/faq-format.ts";
import { ConfirmDialog } from "../../components/ui/modal.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { adminFaqsQuery, type Faq, useAdminFaqWrites, useMoveAdminFaq } from "./faq-api.ts";

/** Spec 2 §4: moving swaps the order values of the entry and its neighbour with two updates. */
export function swapOrders(a: Faq, b: Faq, direction: "up" | "down"): [number, number] {
  if (a.order !== b.order) return [b.order, a.order];
  // Equal orders would swap to the same values; spread them so the move is visible.
  return direction === "up" ? [b.order, b.order + 1] : [b.order + 1, b.order];
}

export function AdminFaqPage() {
  useDocumentTitle("Управление FAQ");
  const query = useQuery(adminFaqsQuery());
  const faqs = query.data ?? [];
  const [moving, setMoving] = useState(false);
  const moveFaq = useMoveAdminFaq();

  const crud = useFaqCrud({
    faqs,
    writes: useAdminFaqWrites(),
    answerToForm: answerToText,
    answerFromForm: formatAnswer,
    errors: {
      save: (err) => errorText(err, "Не удалось сохранить FAQ"),
      delete: (err) => errorText(err, "Не удалось удалить FAQ"),
    },
  });
  const { toDelete, setToDelete, error, setError } = crud;

  const move = async (index: number, direction: "up" | "down") => {
    const a = faqs[index];
    const b = faqs[direction === "up" ? index - 1 : index + 1];
    if (!a || !b || moving) return;
    setMoving(true);
    setError(null);
    const [orderA, orderB] = swapOrders(a, b, direction);
    try {
      await moveFaq.mutateAsync([{ id: a.id, order: orderA }, { id: b.id, order: orderB }]);
    } catch (err) {
      setError(errorText(err, "Ошибка перемещения FAQ"));
    } finally {
      setMoving(false);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление FAQ</h1>
        <div className="st-page-actions">
          <Link to="/admin/faq/edit" className="st-btn">Открыть редактор</Link>
          <button type="button" className="st-btn st-btn-primary" onClick={crud.openAdd} disabled={query.isPending}>
            Добавить вопрос
          </button>
        </div>
      </div>

      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(query.error, "Не удалось загрузить FAQ")}</div>
      )}
      {query.isPending && <p className="st-muted">Загрузка...</p>}
      {query.isSuccess && faqs.length === 0 && (
        <div className="st-section st-empty">Вопросов пока нет. Добавьте первый вопрос.</div>
      )}

      <ol className="st-faq-list" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-busy={moving}>
        {faqs.map((f, i) => (
          <li key={f.id} className="st-faq-item" data-faq-id={f.id}>
            <span className="st-faq-order">
              <span className="visually-hidden">{`Порядок `}</span>
              {f.order}
            </span>
            <div>
              <p className="st-faq-q">{f.question}</p>
              <p className="st-faq-a">{truncateAnswer(f.answer)}</p>
            </div>
            <div className="st-actions" style={{ flexWrap: "wrap" }}>
              <button
                type="button"
                className="st-btn st-btn-sm st-icon-btn"
                aria-label={`Переместить вверх: ${f.question}`}
                title="Вверх"
                disabled={i === 0 || moving}
                onClick={() => move(i, "up")}
              >
                ↑
              </button>
              <button
                type="button"
                className="st-btn st-btn-sm st-icon-btn"
                aria-label={`Переместить вниз: ${f.question}`}
                title="Вниз"
                disabled={i === faqs.length - 1 || moving}
                onClick={() => move(i, "down")}
              >
                ↓
              </button>
              <button
                type="button"
                className="st-btn st-btn-sm"
                onClick={() => crud.openEdit(f)}
                aria-label={`Изменить: ${f.question}`}
              >
                Изменить
              </button>
              <Link
                to="/admin/faq/$id/edit"
                params={{ id: String(f.id) }}
                className="st-btn st-btn-sm"
                aria-label={`Редактор с предпросмотром: ${f.question}`}
              >
                Редактор
              </Link>
              <button
                type="button"
                className="st-btn st-btn-sm st-btn-danger"
                onClick={() => setToDelete(f)}
                aria-label={`Удалить: ${f.question}`}
              >
                Удалить
              </button>
            </div>
          </li>
        ))}
      </ol>

      <FaqEditModal
        crud={crud}
        texts={{
          addTitle: "Новый вопрос",
          editTitle: "Редактирование вопроса",
          cancel: "Отмена",
          save: "Сохранить",
          saving: "Сохранение...",
        }}
        answerRows={6}
      />

      <ConfirmDialog
        open={toDelete !== null}
        title="Удаление вопроса"
        message={<>Вы уверены, что хотите удалить вопрос «{toDelete?.question}»?</>}
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
