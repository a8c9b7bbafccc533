import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { FAQ_EDITOR_TEXTS_EN, FaqFields } from "../../components/staff/faq-editor.tsx";
import { faqFormValid, type FaqFormValue, nextFaqOrder, truncateAnswer } from "../../components/staff/faq-format.ts";
import { ConfirmDialog, Modal } from "../../components/staff/modal.tsx";
import { staffError } from "../../components/staff/staff-error.ts";
import { useDocumentTitle } from "../../components/staff/use-document-title.ts";
import { api } from "../../lib/api.ts";
import { type Faq, moderatorFaqsQuery, moderatorKeys } from "./api.ts";

type Editing = { id: number | null; value: FaqFormValue };

/** Manage FAQ: the entries by order, add/edit in a modal, delete with confirmation. */
export function ModeratorFaqPage() {
  useDocumentTitle("Manage FAQ");
  const queryClient = useQueryClient();
  const query = useQuery(moderatorFaqsQuery());
  const faqs = query.data ?? [];
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [modalError, setModalError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Faq | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: moderatorKeys.faq });
    void queryClient.invalidateQueries({ queryKey: ["faq"] });
  };

  const openAdd = () => {
    setModalError(null);
    setEditing({ id: null, value: { order: String(nextFaqOrder(faqs)), question: "", answer: "" } });
  };
  const openEdit = (f: Faq) => {
    setModalError(null);
    setEditing({ id: f.id, value: { order: String(f.order), question: f.question, answer: f.answer } });
  };

  const save = async () => {
    if (!editing || !faqFormValid(editing.value) || saving) return;
    setSaving(true);
    setModalError(null);
    const body = {
      question: editing.value.question.trim(),
      answer: editing.value.answer.trim(),
      order: Number(editing.value.order),
    };
    try {
      if (editing.id === null) await api("/moderator/faq", { method: "POST", body });
      else await api(`/moderator/faq/${editing.id}`, { method: "PUT", body });
      setEditing(null);
      await reload();
    } catch (err) {
      setModalError(staffError(err, "Failed to save FAQ item", "Error saving FAQ item"));
    } finally {
      setSaving(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setError(null);
    try {
      await api(`/moderator/faq/${toDelete.id}`, { method: "DELETE" });
      await reload();
    } catch (err) {
      setError(staffError(err, "Failed to delete FAQ item", "Error deleting FAQ item"));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Manage FAQ</h1>
        <div className="st-page-actions">
          <button type="button" className="st-btn st-btn-primary" onClick={openAdd} disabled={query.isPending}>
            Add New FAQ
          </button>
        </div>
      </div>

      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {staffError(query.error, "Failed to load FAQ items", "Error loading FAQ items")}
          <button type="button" className="st-btn st-btn-sm" style={{ marginLeft: 12 }} onClick={() => void query.refetch()}>
            Retry
          </button>
        </div>
      )}
      {query.isPending && <p className="st-muted" role="status">Loading FAQ items...</p>}
      {query.isSuccess && faqs.length === 0 && (
        <div className="st-section mod-empty">
          <h2>No FAQ items found</h2>
          <button type="button" className="st-btn st-btn-primary" onClick={openAdd}>Add First FAQ Item</button>
        </div>
      )}

      <ol className="st-faq-list" style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {faqs.map((f) => (
          <li key={f.id} className="st-faq-item" data-faq-id={f.id}>
            <span className="st-faq-order" aria-label={`Order ${f.order}`}>#{f.order}</span>
            <div>
              <p className="st-faq-q">{f.question}</p>
              <p className="st-faq-a">{truncateAnswer(f.answer)}</p>
            </div>
            <div className="st-actions" style={{ flexWrap: "wrap" }}>
              <button type="button" className="st-btn st-btn-sm" onClick={() => openEdit(f)} aria-label={`Edit: ${f.question}`}>
                Edit
              </button>
              <Link
                to="/moderator/faq/$id/edit"
                params={{ id: String(f.id) }}
                className="st-btn st-btn-sm"
                aria-label={`Open editor with preview: ${f.question}`}
              >
                Editor
              </Link>
              <button
                type="button"
                className="st-btn st-btn-sm st-btn-danger"
                onClick={() => setToDelete(f)}
                aria-label={`Delete: ${f.question}`}
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ol>

      <Modal
        open={editing !== null}
        title={editing?.id === null ? "Add New FAQ Item" : "Edit FAQ Item"}
        onClose={() => setEditing(null)}
        closeDisabled={saving}
        closeLabel="Close"
        size="lg"
        footer={
          <>
            <button type="button" className="st-btn" onClick={() => setEditing(null)} disabled={saving}>Cancel</button>
            <button
              type="button"
              className="st-btn st-btn-primary"
              onClick={save}
              disabled={saving || !editing || !faqFormValid(editing.value)}
            >
              {saving ? "Saving..." : "Save"}
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
            answerRows={5}
            texts={FAQ_EDITOR_TEXTS_EN}
          />
        )}
      </Modal>

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete FAQ Item"
        message={
          <>
            Are you sure you want to delete this FAQ item?
            <strong style={{ display: "block", marginTop: 8 }}>{toDelete?.question}</strong>
          </>
        }
        warning="This action cannot be undone."
        confirmLabel="Delete"
        busyLabel="Deleting..."
        cancelLabel="Cancel"
        closeLabel="Close"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
