import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { FaqEditModal, useFaqCrud } from "../../components/faq-editor/faq-crud.tsx";
import { FAQ_EDITOR_TEXTS_EN } from "../../components/faq-editor/faq-editor.tsx";
import { truncateAnswer } from "../../components/faq-editor/faq-format.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { moderatorFaqsQuery, useModeratorFaqWrites } from "./api.ts";
import { ModeratorFaqDeleteDialog } from "./faq-delete-dialog.tsx";

/** Manage FAQ: the entries by order, add/edit in a modal, delete with confirmation. */
export function ModeratorFaqPage() {
  useDocumentTitle("Manage FAQ");
  const query = useQuery(moderatorFaqsQuery());
  const faqs = query.data ?? [];
  const crud = useFaqCrud({
    faqs,
    writes: useModeratorFaqWrites(),
    answerToForm: (answer) => answer,
    answerFromForm: (text) => text.trim(),
    errors: {
      save: (err) => errorText(err, "Failed to save FAQ item", "Error saving FAQ item"),
      delete: (err) => errorText(err, "Failed to delete FAQ item", "Error deleting FAQ item"),
    },
  });
  const { openAdd, error, setToDelete } = crud;

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
          {errorText(query.error, "Failed to load FAQ items", "Error loading FAQ items")}
          <button
            type="button"
            className="st-btn st-btn-sm"
            style={{ marginLeft: 12 }}
            onClick={() => void query.refetch()}
          >
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
            <span className="st-faq-order">
              <span className="visually-hidden">{`Order `}</span>#{f.order}
            </span>
            <div>
              <p className="st-faq-q" data-user-content="">{f.question}</p>
              <p className="st-faq-a" data-user-content="">{truncateAnswer(f.answer)}</p>
            </div>
            <div className="st-actions" style={{ flexWrap: "wrap" }}>
              <button
                type="button"
                className="st-btn st-btn-sm"
                onClick={() => crud.openEdit(f)}
                aria-label={`Edit: ${f.question}`}
              >
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

      <FaqEditModal
        crud={crud}
        texts={{
          addTitle: "Add New FAQ Item",
          editTitle: "Edit FAQ Item",
          cancel: "Cancel",
          save: "Save",
          saving: "Saving...",
          close: "Close",
        }}
        fieldTexts={FAQ_EDITOR_TEXTS_EN}
        answerRows={5}
      />

      <ModeratorFaqDeleteDialog
        question={crud.toDelete?.question}
        open={crud.toDelete !== null}
        busy={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={() => crud.setToDelete(null)}
      />
    </section>
  );
}
