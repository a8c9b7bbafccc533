import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { FAQ_EDITOR_TEXTS_EN, FaqFields, FaqPreview } from "../../components/faq-editor/faq-editor.tsx";
import { faqFormValid, type FaqFormValue, nextFaqOrder } from "../../components/faq-editor/faq-format.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { moderatorFaqQuery, moderatorFaqsQuery, useModeratorFaqWrites } from "./api.ts";
import { ModeratorFaqDeleteDialog } from "./faq-delete-dialog.tsx";

const TEXTS = {
  ...FAQ_EDITOR_TEXTS_EN,
  answerHelp: "Basic HTML allowed: <p>, <br>, <strong>, <em>, <ul>, <ol>, <li>, <a>.",
};

/** Add New FAQ / Edit FAQ with a live HTML preview (spec 2 "Moderator FAQ edit page"). */
export function ModeratorFaqEditPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const faqId = id ? Number(id) : null;
  const isNew = faqId === null;
  useDocumentTitle(isNew ? "Add New FAQ" : "Edit FAQ");
  const writes = useModeratorFaqWrites();
  const navigate = useNavigate();
  const one = useQuery({ ...moderatorFaqQuery(faqId ?? 0), enabled: !isNew });
  const list = useQuery({ ...moderatorFaqsQuery(), enabled: isNew });

  const [value, setValue] = useState<FaqFormValue | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (value) return;
    if (!isNew && one.data) {
      setValue({ order: String(one.data.order), question: one.data.question, answer: one.data.answer });
    }
    if (isNew && (list.data || list.isError)) {
      setValue({ order: String(nextFaqOrder(list.data ?? [])), question: "", answer: "" });
    }
  }, [isNew, one.data, list.data, list.isError, value]);

  const done = () => navigate({ to: "/moderator/faq" });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value || !faqFormValid(value) || saving) return;
    setSaving(true);
    setError(null);
    const body = { question: value.question.trim(), answer: value.answer.trim(), order: Number(value.order) };
    try {
      await writes.save.mutateAsync({ id: faqId, body });
      await done();
    } catch (err) {
      setError(errorText(err, "Failed to save FAQ item", "Error saving FAQ item"));
      setSaving(false);
    }
  };

  const remove = async () => {
    if (faqId === null) return;
    setDeleting(true);
    setError(null);
    try {
      await writes.remove.mutateAsync(faqId);
      setConfirming(false);
      await done();
    } catch (err) {
      setConfirming(false);
      setDeleting(false);
      setError(errorText(err, "Failed to delete FAQ item", "Error deleting FAQ item"));
    }
  };

  const busy = saving || deleting;

  return (
    <section className="st-page">
      <Link to="/moderator/faq" className="mod-back">← Back to FAQ</Link>
      <div className="st-page-head">
        <h1>{isNew ? "Add New FAQ" : "Edit FAQ"}</h1>
      </div>
      {!isNew && one.isPending && <p className="st-muted" role="status">Loading FAQ item...</p>}
      {!isNew && one.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(one.error, "Failed to load FAQ item", "Error loading FAQ item")}
        </div>
      )}
      {value && (
        <form onSubmit={submit} noValidate>
          {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
          <div className="st-editor">
            <div className="st-section" style={{ marginBottom: 0 }}>
              <FaqFields value={value} onChange={setValue} disabled={busy} answerRows={10} texts={TEXTS} />
              <div className="st-form-actions">
                <Link to="/moderator/faq" className="st-btn">Cancel</Link>
                {!isNew && (
                  <button
                    type="button"
                    className="st-btn st-btn-danger"
                    onClick={() => setConfirming(true)}
                    disabled={busy}
                  >
                    Delete
                  </button>
                )}
                <button type="submit" className="st-btn st-btn-primary" disabled={busy || !faqFormValid(value)}>
                  {saving ? "Saving..." : "Save FAQ"}
                </button>
              </div>
            </div>
            <FaqPreview question={value.question} answer={value.answer} mode="html" texts={TEXTS} />
          </div>
        </form>
      )}

      <ModeratorFaqDeleteDialog
        question={value?.question}
        open={confirming}
        busy={deleting}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
