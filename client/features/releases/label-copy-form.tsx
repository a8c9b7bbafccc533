import { useId, useState } from "react";
import { AUTHOR_ROLES, type AuthorRole, sharesTotal } from "../../../domain/releases.ts";
import type { LabelCopy } from "../../../domain/release-schemas.ts";
import { errorText } from "../../lib/api.ts";
import type { LabelCopyFormTexts } from "./releases-texts.ts";

/**
 * The label copy form (issue 34): title, version, artists, featuring, remixers, authors with their
 * roles and shares (the total shown as it is typed), samples and their clearance, the ISRC. The
 * server checks every rule again; its refusal is shown as it comes, naming the field.
 */
interface Props {
  initial: LabelCopy | null;
  defaults: { title: string; artists: string[] };
  texts: LabelCopyFormTexts;
  onSave: (copy: LabelCopy) => Promise<unknown>;
  /** Class prefix: the artist's pages use the public styles, the panels the `st-` ones. */
  staff?: boolean;
  disabled?: boolean;
}

type AuthorDraft = { name: string; role: AuthorRole; share: string };

const names = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

export function LabelCopyForm({ initial, defaults, texts, onSave, staff = false, disabled = false }: Props) {
  const id = useId();
  const [title, setTitle] = useState(initial?.title ?? defaults.title);
  const [version, setVersion] = useState(initial?.version ?? "");
  const [artists, setArtists] = useState((initial?.artists ?? defaults.artists).join(", "));
  const [featuring, setFeaturing] = useState((initial?.featuring ?? []).join(", "));
  const [remixers, setRemixers] = useState((initial?.remixers ?? []).join(", "));
  const [authors, setAuthors] = useState<AuthorDraft[]>(
    initial?.authors.map((a) => ({ ...a, share: String(a.share) })) ??
      [{ name: "", role: "music", share: "100" }],
  );
  const [used, setUsed] = useState(initial?.samples.used ?? false);
  const [cleared, setCleared] = useState(initial?.samples.cleared ?? false);
  const [details, setDetails] = useState(initial?.samples.details ?? "");
  const [isrc, setIsrc] = useState(initial?.isrc ?? "");
  const [state, setState] = useState<{ kind: "idle" | "saving" | "saved" } | { kind: "error"; text: string }>({
    kind: "idle",
  });

  const c = (name: string) => (staff ? `st-${name}` : name);
  const total = sharesTotal(authors.map((a) => Number(a.share.replace(",", ".")) || 0));
  const setAuthor = (i: number, patch: Partial<AuthorDraft>) =>
    setAuthors(authors.map((a, j) => (j === i ? { ...a, ...patch } : a)));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setState({ kind: "saving" });
    const copy: LabelCopy = {
      title,
      version: version.trim() || null,
      artists: names(artists),
      featuring: names(featuring),
      remixers: names(remixers),
      authors: authors.map((a) => ({ name: a.name, role: a.role, share: Number(a.share.replace(",", ".")) })),
      samples: { used, cleared: used && cleared, details: used ? details : "" },
      isrc: isrc.trim() || null,
    };
    try {
      await onSave(copy);
      setState({ kind: "saved" });
    } catch (err) {
      setState({ kind: "error", text: errorText(err, texts.failed) });
    }
  }

  const field = (key: string, label: string, value: string, set: (v: string) => void, required = false) => (
    <label className={c("field")} htmlFor={`${id}-${key}`}>
      <span>{label}</span>
      <input
        id={`${id}-${key}`}
        className={staff ? "st-input" : "input"}
        name={key}
        value={value}
        required={required}
        disabled={disabled}
        onChange={(e) =>
          set(e.target.value)}
      />
    </label>
  );

  return (
    <form className="label-copy-form" onSubmit={submit} data-testid="label-copy-form">
      {field("title", texts.title, title, setTitle, true)}
      {field("version", texts.version, version, setVersion)}
      {field("artists", texts.artists, artists, setArtists, true)}
      {field("featuring", texts.featuring, featuring, setFeaturing)}
      {field("remixers", texts.remixers, remixers, setRemixers)}
      <fieldset className={c("fieldset")} disabled={disabled}>
        <legend>{texts.authors}</legend>
        {authors.map((a, i) => (
          <div className="label-copy-author" key={i} data-testid="label-copy-author">
            <input
              className={staff ? "st-input" : "input"}
              aria-label={texts.authorName}
              placeholder={texts.authorName}
              value={a.name}
              required
              onChange={(e) => setAuthor(i, { name: e.target.value })}
            />
            <select
              className={staff ? "st-input" : "input"}
              aria-label={texts.role}
              value={a.role}
              onChange={(e) => setAuthor(i, { role: e.target.value as AuthorRole })}
            >
              {AUTHOR_ROLES.map((r) => <option key={r} value={r}>{texts.roles[r]}</option>)}
            </select>
            <input
              className={staff ? "st-input" : "input"}
              aria-label={texts.share}
              inputMode="decimal"
              value={a.share}
              onChange={(e) => setAuthor(i, { share: e.target.value })}
            />
            {authors.length > 1 && (
              <button
                type="button"
                className={staff ? "st-btn st-btn-ghost st-btn-sm" : "btn btn-ghost"}
                onClick={() => setAuthors(authors.filter((_, j) => j !== i))}
              >
                {texts.removeAuthor}
              </button>
            )}
          </div>
        ))}
        <p className={total === 100 ? "label-copy-total" : "label-copy-total label-copy-total-off"} role="status">
          {texts.total(total)}
        </p>
        <button
          type="button"
          className={staff ? "st-btn st-btn-ghost st-btn-sm" : "btn btn-ghost"}
          onClick={() => setAuthors([...authors, { name: "", role: "music", share: "" }])}
        >
          {texts.addAuthor}
        </button>
      </fieldset>
      <fieldset className={c("fieldset")} disabled={disabled}>
        <label className="label-copy-check">
          <input type="checkbox" name="samples-used" checked={used} onChange={(e) => setUsed(e.target.checked)} />
          <span>{texts.samplesUsed}</span>
        </label>
        {used && (
          <>
            <label className="label-copy-check">
              <input
                type="checkbox"
                name="samples-cleared"
                checked={cleared}
                onChange={(e) => setCleared(e.target.checked)}
              />
              <span>{texts.samplesCleared}</span>
            </label>
            <label className={c("field")}>
              <span>{texts.samplesDetails}</span>
              <textarea
                className={staff ? "st-textarea" : "textarea"}
                name="samples-details"
                value={details}
                onChange={(e) => setDetails(e.target.value)}
              />
            </label>
          </>
        )}
      </fieldset>
      {field("isrc", texts.isrc, isrc, setIsrc)}
      {state.kind === "error" && (
        <div className={staff ? "st-alert st-alert-error" : "alert alert-error"} role="alert">{state.text}</div>
      )}
      {state.kind === "saved" && (
        <div className={staff ? "st-alert st-alert-success" : "alert alert-success"} role="status">{texts.saved}</div>
      )}
      <button
        type="submit"
        className={staff ? "st-btn st-btn-primary" : "btn btn-primary"}
        disabled={disabled || state.kind === "saving"}
      >
        {state.kind === "saving" ? texts.saving : texts.save}
      </button>
    </form>
  );
}
