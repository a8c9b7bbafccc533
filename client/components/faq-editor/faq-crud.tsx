import { useState } from "react";
import { type FaqEditorTexts, FaqFields } from "./faq-editor.tsx";
import { faqFormValid, type FaqFormValue, nextFaqOrder } from "./faq-format.ts";
import { Modal } from "../ui/modal.tsx";
import type { Faq, useStaffFaqWrites } from "../../lib/staff-queries.ts";

/**
 * The add/edit-in-a-modal and delete-with-confirmation logic of the admin and moderator FAQ lists
 * (spec 2 "Admin FAQ", "Moderator FAQ"). The panels differ in texts, in how an answer is written in
 * the form (the admin types paragraphs as plain text, the moderator types HTML); the screens around
 * it stay in each feature, and so do the write hooks, which refresh what shows FAQ.
 */
export interface FaqCrudOptions {
  faqs: Faq[];
  /** The panel's FAQ write hooks (its feature's api.ts). */
  writes: ReturnType<typeof useStaffFaqWrites>;
  /** Stored answer → the text in the form. */
  answerToForm: (answer: string) => string;
  /** The form's answer text → what is sent. */
  answerFromForm: (text: string) => string;
  errors: { save: (err: unknown) => string; delete: (err: unknown) => string };
}

type Editing = { id: number | null; value: FaqFormValue };

export function useFaqCrud({ faqs, writes, answerToForm, answerFromForm, errors }: FaqCrudOptions) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [modalError, setModalError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Faq | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const openAdd = () => {
    setModalError(null);
    setEditing({ id: null, value: { order: String(nextFaqOrder(faqs)), question: "", answer: "" } });
  };
  const openEdit = (f: Faq) => {
    setModalError(null);
    setEditing({ id: f.id, value: { order: String(f.order), question: f.question, answer: answerToForm(f.answer) } });
  };

  const save = async () => {
    if (!editing || !faqFormValid(editing.value) || saving) return;
    setSaving(true);
    setModalError(null);
    const body = {
      question: editing.value.question.trim(),
      answer: answerFromForm(editing.value.answer),
      order: Number(editing.value.order),
    };
    try {
      await writes.save.mutateAsync({ id: editing.id, body });
      setEditing(null);
    } catch (err) {
      setModalError(errors.save(err));
    } finally {
      setSaving(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setError(null);
    try {
      await writes.remove.mutateAsync(toDelete.id);
    } catch (err) {
      setError(errors.delete(err));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return {
    editing,
    setEditing,
    saving,
    modalError,
    toDelete,
    setToDelete,
    deleting,
    error,
    setError,
    openAdd,
    openEdit,
    save,
    confirmDelete,
  };
}

export type FaqCrud = ReturnType<typeof useFaqCrud>;

export interface FaqModalTexts {
  addTitle: string;
  editTitle: string;
  cancel: string;
  save: string;
  saving: string;
  /** The close button's label; the modal's own default when absent. */
  close?: string;
}

/** The add/edit modal of a FAQ list. */
export function FaqEditModal(
  { crud, texts, fieldTexts, answerRows }: {
    crud: FaqCrud;
    texts: FaqModalTexts;
    fieldTexts?: FaqEditorTexts;
    answerRows: number;
  },
) {
  const { editing, setEditing, saving, modalError, save } = crud;
  return (
    <Modal
      open={editing !== null}
      title={editing?.id === null ? texts.addTitle : texts.editTitle}
      onClose={() => setEditing(null)}
      closeDisabled={saving}
      closeLabel={texts.close}
      size="lg"
      footer={
        <>
          <button type="button" className="st-btn" onClick={() => setEditing(null)} disabled={saving}>
            {texts.cancel}
          </button>
          <button
            type="button"
            className="st-btn st-btn-primary"
            onClick={save}
            disabled={saving || !editing || !faqFormValid(editing.value)}
          >
            {saving ? texts.saving : texts.save}
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
          answerRows={answerRows}
          texts={fieldTexts}
        />
      )}
    </Modal>
  );
}
