import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { FaqFields } from "../../components/staff/faq-editor.tsx";
import {
  answerToText,
  faqFormValid,
  type FaqFormValue,
  formatAnswer,
  nextFaqOrder,
  truncateAnswer,
} from "../../components/staff/faq-format.ts";
import { ConfirmDialog, Modal } from "../../components/staff/modal.tsx";
import { staffError } from "../../components/staff/staff-error.ts";
import { useDocumentTitle } from "../../components/staff/use-document-title.ts";
import { api } from "../../lib/api.ts";
import { adminFaqsQuery, adminKeys, type Faq } from "./api.ts";

type Editing = { id: number | null; value: FaqFormValue };

/** Spec 2 §4: moving swaps the order values of the entry and its neighbour with two updates. */
export function swapOrders(a: Faq, b: Faq, direction: "up" | "down"): [number, number] {
  if (a.order !== b.order) return [b.order, a.order];
  // Equal orders would swap to the same values; spread them so the move is visible.
  return direction === "up" ? [b.order, b.order + 1] : [b.order + 1, b.order];
}

export function AdminFaqPage() {
  useDocumentTitle("Управление FAQ");
  const queryClient = useQueryClient();
  const query = useQuery(adminFaqsQuery());
  const faqs = query.data ?? [];
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [modalError, setModalError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Faq | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);

  const reload = () => queryClient.invalidateQueries({ queryKey: adminKeys.faq });

  const openAdd = () => {
    setModalError(null);
    setEditing({ id: null, value: { order: String(nextFaqOrder(faqs)), question: "", answer: "" } });
  };
  const openEdit = (f: Faq) => {
    setModalError(null);
    setEditing({ id: f.id, value: { order: String(f.order), question: f.question, answer: answerToText(f.answer) } });
  };

  const save = async () => {
    if (!editing || !faqFormValid(editing.value) || saving) return;
    setSaving(true);
    setModalError(null);
    const body = {
      question: editing.value.question.trim(),
      answer: formatAnswer(editing.value.answer),
      order: Number(editing.value.order),
    };
    try {
      if (editing.id === null) await api("/admin/faq", { method: "POST", body });
      else await api(`/admin/faq/${editing.id}`, { method: "PUT", body });
      setEditing(null);
      await reload();
    } catch (err) {
      setModalError(staffError(err, "Не удалось сохранить FAQ"));
    } finally {
      setSaving(false);
    }
  };

  const move = async (index: number, direction: "up" | "down") => {
    const a = faqs[index];
    const b = faqs[direction === "up" ? index - 1 : index + 1];
    if (!a || !b || moving) return;
    setMoving(true);
    setError(null);
    const [orderA, orderB] = swapOrders(a, b, direction);
    try {
      await api(`/admin/faq/${a.id}`, { method: "PUT", body: { order: orderA } });
      await api(`/admin/faq/${b.id}`, { method: "PUT", body: { order: orderB } });
    } catch (err) {
      setError(staffError(err, "Ошибка перемещения FAQ"));
    } finally {
      await reload();
      setMoving(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setError(null);
    try {
      await api(`/admin/faq/${toDelete.id}`, { method: "DELETE" });
      await reload();
    } catch (err) {
      setError(staffError(err, "Не удалось удалить FAQ"));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление FAQ</h1>
        <div className="st-page-actions">
          <Link to="/admin/faq/edit" className="st-btn">Открыть редактор</Link>
          <button type="button" className="st-btn st-btn-primary" onClick={openAdd} disabled={query.isPending}>
            Добавить вопрос
          </button>
        </div>
      </div>

      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">{staffError(query.error, "Не удалось загрузить FAQ")}</div>
      )}
      {query.isPending && <p className="st-muted">Загрузка...</p>}
      {query.isSuccess && faqs.length === 0 && (
        <div className="st-section st-empty">Вопросов пока нет. Добавьте первый вопрос.</div>
      )}

      <ol className="st-faq-list" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-busy={moving}>
        {faqs.map((f, i) => (
          <li key={f.id} className="st-faq-item" data-faq-id={f.id}>
            <span className="st-faq-order" aria-label={`Порядок ${f.order}`}>{f.order}</span>
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
              <button type="button" className="st-btn st-btn-sm" onClick={() => openEdit(f)} aria-label={`Изменить: ${f.question}`}>
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

      <Modal
        open={editing !== null}
        title={editing?.id === null ? "Новый вопрос" : "Редактирование вопроса"}
        onClose={() => setEditing(null)}
        closeDisabled={saving}
        size="lg"
        footer={
          <>
            <button type="button" className="st-btn" onClick={() => setEditing(null)} disabled={saving}>Отмена</button>
            <button
              type="button"
              className="st-btn st-btn-primary"
              onClick={save}
              disabled={saving || !editing || !faqFormValid(editing.value)}
            >
              {saving ? "Сохранение..." : "Сохранить"}
            </button>
          </>
        }
      >
        {modalError && <div className="st-alert st-alert-error" role="alert">{modalError}</div>}
        {editing && (
          <FaqFields
            value={editing.value}
            onChange={(value) => setEditing({ ...editing, value })}
            disabled={saving}
            answerRows={6}
          />
        )}
      </Modal>

      <ConfirmDialog
        open={toDelete !== null}
        title="Удаление вопроса"
        message={<>Вы уверены, что хотите удалить вопрос «{toDelete?.question}»?</>}
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
