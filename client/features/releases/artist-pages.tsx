import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { russianDate } from "../../../domain/releases.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import {
  type ArtistRelease,
  artistReleaseQuery,
  artistReleasesKey,
  artistReleasesQuery,
  useSaveArtistLabelCopy,
} from "./api.ts";
import { LabelCopyForm } from "./label-copy-form.tsx";
import { type ReleaseFileItem, ReleaseFiles } from "./materials/ReleaseFiles.tsx";
import { ARTIST_RELEASE_TEXTS as T, LABEL_COPY_FORM_RU } from "./releases-texts.ts";
import "./releases.css";

/**
 * The artist's release pages (issue 34, Russian): `/releases`, their releases with the stage, and
 * `/releases/$id`, the checklist of what the label needs (the files through `ReleaseFiles`, the
 * label copy form, the samples' answer), the date and number once scheduled.
 */
/** The checklist items that are files: their state and refusal live in ReleaseFiles. */
const FILE_KINDS: ReadonlySet<string> = new Set(["master", "extended", "instrumental"]);

export function ArtistReleasesPage() {
  useDocumentTitle(T.title);
  const list = useQuery(artistReleasesQuery());
  return (
    <section className="container releases-page">
      <h1>{T.title}</h1>
      {list.isPending && <p className="muted" role="status">{T.loading}</p>}
      {list.isError && <div className="alert alert-error" role="alert">{errorText(list.error, T.loadFailed)}</div>}
      {list.data?.length === 0 && <p className="muted">{T.none}</p>}
      <ul className="release-list">
        {list.data?.map((r) => (
          <li key={r.id} className="card release-card" data-testid="artist-release">
            <Link to="/releases/$id" params={{ id: String(r.id) }} className="release-card-title">
              {r.artists.join(", ")} — {r.title}
            </Link>
            <span className="muted">{r.label}</span>
            <StageBadge release={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function StageBadge({ release }: { release: ArtistRelease }) {
  const tone = release.stage === "released"
    ? "badge-success"
    : release.stage === "cancelled"
    ? "badge-muted"
    : release.stage === "scheduled"
    ? "badge-info"
    : "badge-warning";
  return (
    <span className={`badge ${tone}`} data-testid="release-stage">
      {T.stages[release.stage]}
      {release.stage === "scheduled" && release.release_date ? ` · ${russianDate(release.release_date)}` : ""}
    </span>
  );
}

const stateText = (m: ArtistRelease["materials"][number]) =>
  m.state === "accepted" ? T.done : m.state === "refused" ? T.refused : m.state === "checking" ? "…" : T.missing;

const KIND_NAMES: Record<string, string> = {
  master: "Мастер (WAV, FLAC или AIFF)",
  extended: "Extended mix",
  instrumental: "Инструментал",
  label_copy: "Данные релиза",
  sample_clearance: "Сэмплы: использованы ли и разрешены ли",
};

export function ArtistReleasePage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const releaseId = Number(id);
  const qc = useQueryClient();
  const one = useQuery(artistReleaseQuery(releaseId));
  const save = useSaveArtistLabelCopy(releaseId);
  const r = one.data;
  useDocumentTitle(r ? `${r.title} — ${T.title}` : T.title);
  if (one.isPending) {
    return (
      <section className="container">
        <p className="muted" role="status">{T.loading}</p>
      </section>
    );
  }
  if (!r) {
    return (
      <section className="container">
        <div className="alert alert-error" role="alert">{errorText(one.error, T.loadFailed)}</div>
        <Link to="/releases">{T.back}</Link>
      </section>
    );
  }
  const files: ReleaseFileItem[] = r.materials
    .filter((m) => FILE_KINDS.has(m.kind))
    .map((m) => ({
      kind: m.kind as ReleaseFileItem["kind"],
      required: m.required,
      state: m.state,
      reason: m.reason,
      filename: m.filename,
    }));
  const closed = r.stage === "cancelled" || r.stage === "released";
  return (
    <section className="container release-page" data-testid="artist-release-page">
      <Link to="/releases" className="muted">{T.back}</Link>
      <h1>{r.artists.join(", ")} — {r.title}{r.version ? ` (${r.version})` : ""}</h1>
      <p className="release-meta">
        <span className="muted">{r.label}</span>
        <StageBadge release={r} />
        {r.catalogue_number && (
          <span>
            {T.catalogue}: <strong>{r.catalogue_number}</strong>
          </span>
        )}
        {r.release_date && (
          <span>
            {T.date}: <strong>{russianDate(r.release_date)}</strong>
          </span>
        )}
      </p>
      {r.materials_complete && r.stage !== "cancelled" && <p className="alert alert-success">{T.complete}</p>}
      <h2>{T.checklist}</h2>
      <ul className="release-checklist" data-testid="release-checklist">
        {r.materials.map((m) => (
          <li key={m.kind} className={`release-check release-check-${m.state}`} data-kind={m.kind}>
            <span className="release-check-name">{KIND_NAMES[m.kind] ?? m.kind}</span>
            <span className="muted">{m.required ? T.required : T.optional}</span>
            <span
              className={`badge ${
                m.state === "accepted" ? "badge-success" : m.state === "refused" ? "badge-danger" : "badge-muted"
              }`}
            >
              {stateText(m)}
            </span>
            {/* A file's refusal is said once, in its row below (ReleaseFiles). */}
            {m.reason && !FILE_KINDS.has(m.kind) && <p className="release-check-reason">{m.reason}</p>}
          </li>
        ))}
      </ul>
      <ReleaseFiles
        releaseId={r.id}
        items={files}
        onChanged={() => void qc.invalidateQueries({ queryKey: artistReleasesKey })}
      />
      <h2>{T.labelCopy}</h2>
      <LabelCopyForm
        key={r.id}
        initial={r.label_copy}
        defaults={{ title: r.title, artists: r.artists }}
        texts={LABEL_COPY_FORM_RU}
        disabled={closed}
        onSave={(copy) => save.mutateAsync(copy)}
      />
    </section>
  );
}
