import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import {
  DECISION_TEXT_MAX_LENGTH,
  DECLINE_TEMPLATE_TITLE_MAX_LENGTH,
  TEMPLATE_OUTCOME_LABELS,
  TEMPLATE_OUTCOMES,
  type TemplateOutcome,
  templateTextProblem,
  templateTitleProblem,
} from "../../../../domain/review.ts";
import { charCount } from "../../../../domain/profile.ts";
import { type DeclineTemplate, declineTemplatesQuery } from "../api/decision-queries.ts";
import { Field } from "../../../components/ui/field.tsx";
import { ConfirmDialog } from "../../../components/ui/modal.tsx";
import { useDocumentTitle } from "../../../components/ui/use-document-title.ts";
import "./decision-panel.css";
import { errorText } from "../../../lib/api.ts";
import { type TemplateInput, useDeclineTemplateWrites } from "../api/decline-templates-api.ts";

/**
 * Шаблоны сообщений (issue 13, decision 0162; outcomes since issue 23, decision 0224): the short
 * lists of ready-made messages to the artist, one per outcome (accept, shortlist, decline), that
 * the decision form and the review desk offer. Add one at the top; each can be edited in place,
 * moved to another outcome, or deleted.
 */
export function AdminDeclineTemplatesPage() {
  useDocumentTitle("Шаблоны сообщений");
  const list = useQuery(declineTemplatesQuery("/admin"));
  const writes = useDeclineTemplateWrites();
  const [deleting, setDeleting] = useState<DeclineTemplate | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await writes.remove.mutateAsync(deleting.id);
      setDeleting(null);
    } catch (err) {
      setDeleteError(errorText(err, "Не удалось удалить шаблон"));
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Шаблоны сообщений</h1>
      </div>
      <p className="st-muted">
        Готовые сообщения артисту для каждого решения: принять, в шорт-лист, отклонить. Форма решения и пульт
        прослушивания предлагают шаблоны своего решения.
      </p>
      <p className="st-muted" data-testid="template-placeholders">
        В тексте можно писать подстановки: <code>{"{artist}"}</code> — артист, <code>{"{title}"}</code>{" "}
        — название трека, <code>{"{direction}"}</code> — направление. При отправке они заменяются данными трека.
      </p>

      <div className="st-section">
        <h2 className="dp-title" style={{ fontSize: 16 }}>Новый шаблон</h2>
        <TemplateForm
          submitLabel="Добавить шаблон"
          savedLabel="Шаблон добавлен"
          onSave={(json) => writes.create.mutateAsync(json)}
          resetAfterSave
        />
      </div>

      {list.isPending && <p className="st-muted" role="status">Загрузка...</p>}
      {list.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(list.error, "Не удалось загрузить шаблоны")}
        </div>
      )}
      {list.data && list.data.length === 0 && <p className="st-muted">Шаблонов пока нет</p>}
      {list.data && list.data.length > 0 && TEMPLATE_OUTCOMES.map((outcome) => {
        const group = list.data.filter((t) => (t.outcome ?? "declined") === outcome);
        return (
          <div key={outcome} className="st-section" data-testid={`templates-${outcome}`}>
            <h2 className="dp-title" style={{ fontSize: 16 }}>{TEMPLATE_OUTCOME_LABELS[outcome]}</h2>
            {group.length === 0 && <p className="st-muted">Шаблонов этого решения пока нет</p>}
            {group.length > 0 && (
              <ul className="tpl-list" aria-label={`Шаблоны: ${TEMPLATE_OUTCOME_LABELS[outcome]}`}>
                {group.map((t) => (
                  <li key={t.id} className="st-section" data-testid="decline-template">
                    <TemplateForm
                      initial={{ title: t.title, text: t.text, outcome: t.outcome ?? "declined" }}
                      submitLabel="Сохранить"
                      savedLabel="Шаблон сохранён"
                      onSave={(json) => writes.update.mutateAsync({ id: t.id, json })}
                      extra={
                        <button
                          type="button"
                          className="st-btn st-btn-danger"
                          onClick={() => setDeleting(t)}
                        >
                          Удалить
                        </button>
                      }
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}

      <ConfirmDialog
        open={deleting !== null}
        title="Удалить шаблон?"
        message={deleting ? `Шаблон «${deleting.title}» будет удалён. Уже отправленные сообщения останутся.` : ""}
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={writes.remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
      />
    </section>
  );
}

function TemplateForm(
  { initial, submitLabel, savedLabel, onSave, extra, resetAfterSave }: {
    initial?: TemplateInput;
    submitLabel: string;
    savedLabel: string;
    onSave: (v: TemplateInput) => Promise<unknown>;
    extra?: ReactNode;
    resetAfterSave?: boolean;
  },
) {
  const fid = useId();
  const [title, setTitle] = useState(initial?.title ?? "");
  const [text, setText] = useState(initial?.text ?? "");
  const [outcome, setOutcome] = useState<TemplateOutcome>(initial?.outcome ?? "declined");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const titleProblem = templateTitleProblem(title);
  const textProblem = templateTextProblem(text);
  const unchanged = initial !== undefined && initial.title === title.trim() && initial.text === text.trim() &&
    initial.outcome === outcome;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (titleProblem || textProblem || busy || unchanged) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await onSave({ title: title.trim(), text: text.trim(), outcome });
      setSaved(true);
      setTouched(false);
      if (resetAfterSave) {
        setTitle("");
        setText("");
      }
    } catch (err) {
      setError(errorText(err, "Не удалось сохранить шаблон"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="dp-form" onSubmit={submit} noValidate>
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {saved && <div className="st-alert st-alert-success" role="status">{savedLabel}</div>}
      <Field label="Решение">
        <select
          className="st-input"
          value={outcome}
          onChange={(e) => {
            setOutcome(e.target.value as TemplateOutcome);
            setSaved(false);
          }}
        >
          {TEMPLATE_OUTCOMES.map((o) => <option key={o} value={o}>{TEMPLATE_OUTCOME_LABELS[o]}</option>)}
        </select>
      </Field>
      <div className="st-field">
        <label className="st-label" htmlFor={`${fid}-title`}>Название</label>
        <input
          id={`${fid}-title`}
          className="st-input"
          value={title}
          aria-invalid={(touched && Boolean(titleProblem)) || undefined}
          aria-describedby={`${fid}-title-hint`}
          onChange={(e) => {
            setTitle(e.target.value);
            setSaved(false);
          }}
        />
        <small
          className="st-hint"
          id={`${fid}-title-hint`}
          style={touched && titleProblem ? { color: "var(--danger)" } : undefined}
        >
          {touched && titleProblem ? titleProblem : `${charCount(title.trim())} / ${DECLINE_TEMPLATE_TITLE_MAX_LENGTH}`}
        </small>
      </div>
      <div className="st-field">
        <label className="st-label" htmlFor={`${fid}-text`}>Текст сообщения артисту</label>
        <textarea
          id={`${fid}-text`}
          className="st-input dp-text"
          rows={3}
          value={text}
          aria-invalid={(touched && Boolean(textProblem)) || undefined}
          aria-describedby={`${fid}-text-hint`}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
        />
        <small
          className="st-hint"
          id={`${fid}-text-hint`}
          style={touched && textProblem ? { color: "var(--danger)" } : undefined}
        >
          {touched && textProblem ? textProblem : `${charCount(text.trim())} / ${DECISION_TEXT_MAX_LENGTH}`}
        </small>
      </div>
      <div className="st-form-actions dp-actions">
        {extra}
        <button type="submit" className="st-btn st-btn-primary" disabled={busy || unchanged}>
          {busy ? "Сохранение..." : submitLabel}
        </button>
      </div>
    </form>
  );
}
