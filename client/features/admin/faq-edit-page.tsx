import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { FaqFields, FaqPreview } from "../../components/faq-editor/faq-editor.tsx";
import {
  answerToText,
  faqFormValid,
  type FaqFormValue,
  formatAnswer,
  nextFaqOrder,
} from "../../components/faq-editor/faq-format.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { useRedirectAfter } from "../../components/ui/use-redirect-after.ts";
import { errorText } from "../../lib/api.ts";
import { adminFaqQuery, adminFaqsQuery, useAdminFaqWrites } from "./faq-api.ts";

/** FAQ entry editor with a live preview (blank line = paragraph, newline = line break). */
export function AdminFaqEditPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const faqId = id ? Number(id) : null;
  const isNew = faqId === null;
  useDocumentTitle("Редактирование FAQ");
  const { save } = useAdminFaqWrites();
  const redirect = useRedirectAfter();
  const one = useQuery({ ...adminFaqQuery(faqId ?? 0), enabled: !isNew });
  const list = useQuery({ ...adminFaqsQuery(), enabled: isNew });

  const [value, setValue] = useState<FaqFormValue | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (value) return;
    if (!isNew && one.data) {
      setValue({ order: String(one.data.order), question: one.data.question, answer: answerToText(one.data.answer) });
    }
    if (isNew && (list.data || list.isError)) {
      setValue({ order: String(nextFaqOrder(list.data ?? [])), question: "", answer: "" });
    }
  }, [isNew, one.data, list.data, list.isError, value]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value || !faqFormValid(value) || saving || done) return;
    setSaving(true);
    setError(null);
    const body = { question: value.question.trim(), answer: formatAnswer(value.answer), order: Number(value.order) };
    try {
      await save.mutateAsync({ id: faqId, body });
      setDone(true);
      redirect("/admin/faq");
    } catch (err) {
      setError(errorText(err, "Не удалось сохранить вопрос"));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>{isNew ? "Новый вопрос FAQ" : "Редактирование FAQ"}</h1>
        <Link to="/admin/faq" className="st-btn">← К списку вопросов</Link>
      </div>
      {!isNew && one.isPending && <p className="st-muted">Загрузка...</p>}
      {!isNew && one.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(one.error, "Не удалось загрузить данные вопроса")}
        </div>
      )}
      {value && (
        <form onSubmit={submit} noValidate>
          {done && <div className="st-alert st-alert-success" role="status">Вопрос успешно сохранен</div>}
          {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
          <div className="st-editor">
            <div className="st-section" style={{ marginBottom: 0 }}>
              <FaqFields value={value} onChange={setValue} disabled={saving || done} answerRows={10} />
              <div className="st-form-actions">
                <Link to="/admin/faq" className="st-btn">Отмена</Link>
                <button
                  type="submit"
                  className="st-btn st-btn-primary"
                  disabled={saving || done || !faqFormValid(value)}
                >
                  {saving ? "Сохранение..." : "Сохранить"}
                </button>
              </div>
            </div>
            <FaqPreview question={value.question} answer={value.answer} mode="paragraphs" />
          </div>
        </form>
      )}
    </section>
  );
}
