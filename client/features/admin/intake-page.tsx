import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { type Direction, isDirection } from "../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../../domain/staff-directions.ts";
import { isLabelDirection } from "../../../domain/releases.ts";
import { Field } from "../../components/ui/field.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { adminIntakeQuery, type IntakeRule, type IntakeRuleInput, useSaveIntakeRule } from "./intake-api.ts";
import "./intake.css";

/** The page's texts (Russian, like the rest of the admin panel). */
export const INTAKE_TEXTS = {
  title: "Приём треков",
  lead:
    "Правила приёма для каждого направления: открыт ли приём, сколько треков артист может прислать, окно темпа и срок ответа. Модераторы видят правила своих направлений.",
  open: "Приём открыт",
  paused: "Пауза",
  acceptTracks: "Принимать треки",
  pauseMessage: "Сообщение на время паузы",
  pauseHint: "Артист видит его у направления на странице отправки; сервер отвечает им же.",
  cap: "Лимит треков за 30 дней",
  capHint: "На одного артиста; пусто — без ограничения.",
  cooldown: "Перерыв между отправками, ч",
  cooldownHint: "Для одного артиста; пусто — без перерыва.",
  tempoMin: "Темп от, BPM",
  tempoMax: "Темп до, BPM",
  tempoMode: "Трек вне окна темпа",
  flag: "Отметить",
  refuse: "Отклонить",
  tempoHint: "Половинный темп считается как двойной (85 → 170).",
  promise: "Срок ответа, дней",
  promiseHint: "Артист видит «ответ до <дата>», а со следующего дня — «ответ задерживается, обещали до <дата>».",
  autoDecline: "Автоотказ после срока, дней",
  autoDeclineHint: "Трек без решения после срока и этих дней отклоняется автоматически.",
  lateMessage: "Сообщение «не успели послушать»",
  lateHint: "Уходит артисту при автоотказе. Пусто — стандартный текст. Подстановки: {artist}, {title}, {direction}.",
  staffChat: "Telegram-чат сотрудников",
  /** Issue 34: the label's release desk (label directions only). */
  releases: "Релизы лейбла",
  cataloguePrefix: "Префикс номера по каталогу",
  cataloguePrefixHint: "2–8 латинских заглавных, например NPR. Пусто — встроенный (NPR, KSTR).",
  catalogueNext: "Следующий номер",
  catalogueNextHint: "С него начинается подсказка номера; если номера выше уже выданы — следующий за ними.",
  releaseExtended: "Просить extended mix",
  releaseInstrumental: "Просить инструментал",
  staffChatHint:
    "id группы (например, -1001234567890) или @канал: туда приходят карточки новых треков. Пусто — не отправлять.",
  save: "Сохранить",
  saving: "Сохранение...",
  saved: "Правила сохранены",
  saveFailed: "Не удалось сохранить правила",
  loading: "Загрузка...",
  loadFailed: "Не удалось загрузить правила приёма",
  updated: "Изменено",
} as const;

/**
 * «Приём треков» (issue 25): one card per direction with its intake rule — open or paused with a
 * message, the cap per 30 days, the cooldown, the tempo window and what happens outside it, the
 * response promise, the automatic decline and its message, the staff Telegram chat (issue 27).
 * Each card saves its own direction; the server's `error` is shown on that card.
 */
export function AdminIntakePage() {
  useDocumentTitle(INTAKE_TEXTS.title);
  const list = useQuery(adminIntakeQuery());
  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>{INTAKE_TEXTS.title}</h1>
      </div>
      <p className="st-muted">{INTAKE_TEXTS.lead}</p>
      {list.isPending && <p className="st-muted" role="status">{INTAKE_TEXTS.loading}</p>}
      {list.isError && (
        <div className="st-alert st-alert-error" role="alert">{errorText(list.error, INTAKE_TEXTS.loadFailed)}</div>
      )}
      {list.data?.map((rule) => <RuleForm key={rule.direction} rule={rule} />)}
    </section>
  );
}

/** The form's values: numbers as typed (text), "" for none. */
interface Draft {
  open: boolean;
  pause_message: string;
  cap_per_30_days: string;
  cooldown_hours: string;
  tempo_min: string;
  tempo_max: string;
  tempo_mode: "flag" | "refuse";
  promise_days: string;
  auto_decline_after_days: string;
  late_message: string;
  staff_chat_id: string;
  catalogue_prefix: string;
  catalogue_next: string;
  release_extended: boolean;
  release_instrumental: boolean;
}

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

function draftOf(r: IntakeRule): Draft {
  return {
    open: r.open,
    pause_message: text(r.pause_message),
    cap_per_30_days: text(r.cap_per_30_days),
    cooldown_hours: text(r.cooldown_hours),
    tempo_min: text(r.tempo_min),
    tempo_max: text(r.tempo_max),
    tempo_mode: r.tempo_mode === "refuse" ? "refuse" : "flag",
    promise_days: text(r.promise_days),
    auto_decline_after_days: text(r.auto_decline_after_days),
    late_message: text(r.late_message),
    staff_chat_id: text(r.staff_chat_id),
    catalogue_prefix: text(r.catalogue_prefix),
    catalogue_next: text(r.catalogue_next),
    release_extended: r.release_extended,
    release_instrumental: r.release_instrumental,
  };
}

/** A number field as typed: "" is none (null); anything else goes as a number for the server to judge. */
const num = (s: string): number | null => (s.trim() === "" ? null : Number(s.trim()));
const str = (s: string): string | null => (s.trim() === "" ? null : s.trim());

/** What the PUT sends: every writable field, so the saved rule is exactly what the card shows. */
export function inputOf(d: Draft, direction?: string): IntakeRuleInput {
  // The release desk's settings belong to the label directions (issue 34).
  const releases = direction && isLabelDirection(direction)
    ? {
      catalogue_prefix: str(d.catalogue_prefix),
      catalogue_next: num(d.catalogue_next),
      release_extended: d.release_extended,
      release_instrumental: d.release_instrumental,
    }
    : {};
  return {
    ...releases,
    open: d.open,
    pause_message: str(d.pause_message),
    cap_per_30_days: num(d.cap_per_30_days),
    cooldown_hours: num(d.cooldown_hours),
    tempo_min: num(d.tempo_min),
    tempo_max: num(d.tempo_max),
    tempo_mode: d.tempo_mode,
    promise_days: num(d.promise_days),
    auto_decline_after_days: num(d.auto_decline_after_days),
    late_message: str(d.late_message),
    staff_chat_id: str(d.staff_chat_id),
    // An emptied required number (tempo, promise, decline) goes as null: the server answers with
    // that field's own Russian message, shown on the card (one rule, domain/intake-rules.ts).
  } as IntakeRuleInput;
}

function RuleForm({ rule }: { rule: IntakeRule }) {
  const fid = useId();
  const direction = rule.direction as Direction;
  const label = isDirection(direction) ? ADMIN_DIRECTION_LABELS[direction] : rule.direction;
  const [saved, setSaved] = useState<IntakeRule>(rule);
  const [draft, setDraft] = useState<Draft>(() => draftOf(rule));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const pauseRef = useRef<HTMLTextAreaElement>(null);
  const save = useSaveIntakeRule();
  // A newer rule read while the card is untouched (another admin saved): the card follows it.
  const edited = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));
  if (rule.updated_at !== saved.updated_at && !edited && !save.isPending) {
    setSaved(rule);
    setDraft(draftOf(rule));
  }

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setDone(false);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    setError(null);
    setDone(false);
    try {
      const answer = await save.mutateAsync({ direction: rule.direction, json: inputOf(draft, rule.direction) });
      setSaved(answer.rule);
      setDraft(draftOf(answer.rule));
      setDone(true);
    } catch (err) {
      setError(errorText(err, INTAKE_TEXTS.saveFailed));
    }
  };

  const f = (name: string) => `${fid}-${name}`;
  const numberField = (key: keyof Draft, title: string, hint?: string, min = 0) => (
    <Field label={title} hint={hint}>
      <input
        className="st-input"
        type="number"
        inputMode="numeric"
        min={min}
        step={1}
        value={draft[key] as string}
        onChange={(e) => set(key, e.target.value as never)}
      />
    </Field>
  );

  return (
    <form
      className="st-section intake-card"
      onSubmit={submit}
      noValidate
      aria-labelledby={f("h")}
      data-testid={`intake-${rule.direction}`}
    >
      <div className="intake-head">
        <h2 id={f("h")}>{label}</h2>
        <span
          className={saved.open ? "st-badge st-badge-success" : "st-badge st-badge-warning"}
          data-testid="intake-state"
        >
          {saved.open ? INTAKE_TEXTS.open : INTAKE_TEXTS.paused}
        </span>
        {saved.updated_at && (
          <span className="st-muted st-small">
            {`${INTAKE_TEXTS.updated}: ${formatDateTime(saved.updated_at)}`}
            {saved.updated_by ? `, @${saved.updated_by}` : ""}
          </span>
        )}
      </div>
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {done && <div className="st-alert st-alert-success" role="status">{INTAKE_TEXTS.saved}</div>}

      <div className="st-form-grid intake-grid">
        <label className="st-check st-wide">
          <input
            type="checkbox"
            checked={draft.open}
            onChange={(e) => {
              set("open", e.target.checked);
              // Pausing asks for the message next: the field takes the focus.
              if (!e.target.checked) setTimeout(() => pauseRef.current?.focus(), 0);
            }}
          />
          <span>{INTAKE_TEXTS.acceptTracks}</span>
        </label>
        <Field label={INTAKE_TEXTS.pauseMessage} className="st-wide" hint={INTAKE_TEXTS.pauseHint}>
          <textarea
            ref={pauseRef}
            className="st-textarea"
            rows={2}
            value={draft.pause_message}
            onChange={(e) => set("pause_message", e.target.value)}
          />
        </Field>
        {numberField("cap_per_30_days", INTAKE_TEXTS.cap, INTAKE_TEXTS.capHint, 1)}
        {numberField("cooldown_hours", INTAKE_TEXTS.cooldown, INTAKE_TEXTS.cooldownHint, 1)}
        {numberField("promise_days", INTAKE_TEXTS.promise, INTAKE_TEXTS.promiseHint, 1)}
        {numberField("auto_decline_after_days", INTAKE_TEXTS.autoDecline, INTAKE_TEXTS.autoDeclineHint)}
        {numberField("tempo_min", INTAKE_TEXTS.tempoMin, undefined, 1)}
        {numberField("tempo_max", INTAKE_TEXTS.tempoMax, undefined, 1)}
        <fieldset className="st-fieldset intake-half" aria-describedby={f("tempo-hint")}>
          <legend className="st-label">{INTAKE_TEXTS.tempoMode}</legend>
          <div className="st-radio-row">
            {(["flag", "refuse"] as const).map((mode) => (
              <label key={mode} className="st-check">
                <input
                  type="radio"
                  name={f("tempo-mode")}
                  value={mode}
                  checked={draft.tempo_mode === mode}
                  onChange={() => set("tempo_mode", mode)}
                />
                <span>{INTAKE_TEXTS[mode]}</span>
              </label>
            ))}
          </div>
          <small className="st-hint" id={f("tempo-hint")}>{INTAKE_TEXTS.tempoHint}</small>
        </fieldset>
        <Field label={INTAKE_TEXTS.lateMessage} className="intake-half" hint={INTAKE_TEXTS.lateHint}>
          <textarea
            className="st-textarea"
            rows={3}
            value={draft.late_message}
            onChange={(e) => set("late_message", e.target.value)}
          />
        </Field>
        <Field label={INTAKE_TEXTS.staffChat} className="intake-half" hint={INTAKE_TEXTS.staffChatHint}>
          <input
            className="st-input"
            autoComplete="off"
            spellCheck={false}
            value={draft.staff_chat_id}
            onChange={(e) => set("staff_chat_id", e.target.value)}
          />
        </Field>
        {isLabelDirection(rule.direction) && (
          <fieldset className="st-fieldset intake-half" data-testid="intake-releases">
            <legend className="st-label">{INTAKE_TEXTS.releases}</legend>
            <Field label={INTAKE_TEXTS.cataloguePrefix} hint={INTAKE_TEXTS.cataloguePrefixHint}>
              <input
                className="st-input"
                autoComplete="off"
                value={draft.catalogue_prefix}
                onChange={(e) =>
                  set("catalogue_prefix", e.target.value)}
              />
            </Field>
            {numberField("catalogue_next", INTAKE_TEXTS.catalogueNext, INTAKE_TEXTS.catalogueNextHint, 1)}
            <label className="st-check">
              <input
                type="checkbox"
                checked={draft.release_extended}
                onChange={(e) =>
                  set("release_extended", e.target.checked)}
              />
              <span>{INTAKE_TEXTS.releaseExtended}</span>
            </label>
            <label className="st-check">
              <input
                type="checkbox"
                checked={draft.release_instrumental}
                onChange={(e) => set("release_instrumental", e.target.checked)}
              />
              <span>{INTAKE_TEXTS.releaseInstrumental}</span>
            </label>
          </fieldset>
        )}
      </div>
      <div className="st-form-actions">
        <button type="submit" className="st-btn st-btn-primary" disabled={save.isPending || !edited}>
          {save.isPending ? INTAKE_TEXTS.saving : INTAKE_TEXTS.save}
        </button>
      </div>
    </form>
  );
}
