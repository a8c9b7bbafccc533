import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { SHOW_DIRECTIONS, type ShowDirection } from "../../../domain/episodes.ts";
import { inScope } from "../../../domain/scope.ts";
import { Field } from "../../components/ui/field.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import { useModeratorStatus } from "../../lib/moderator-status.ts";
import { type EpisodeBase, episodeListQuery, useCreateEpisode } from "./api.ts";
import { EPISODE_TEXTS_EN, EPISODE_TEXTS_RU, type EpisodeTexts } from "./episode-texts.ts";
import "./episodes.css";

export function AdminEpisodesPage() {
  return <EpisodesPage base="admin" t={EPISODE_TEXTS_RU} />;
}

export function ModeratorEpisodesPage() {
  return <EpisodesPage base="moderator" t={EPISODE_TEXTS_EN} />;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Issue 35: a show's episodes, newest air day first, and the form that starts the next one. */
function EpisodesPage({ base, t }: { base: EpisodeBase; t: EpisodeTexts }) {
  useDocumentTitle(t.listTitle);
  const { categories } = useModeratorStatus();
  const shows = SHOW_DIRECTIONS.filter((d) => categories !== null && inScope(d, categories));
  const [picked, setPicked] = useState<ShowDirection | null>(null);
  const direction = picked ?? shows[0] ?? null;
  return (
    <section className="st-page ep-page">
      <div className="st-page-head">
        <h1>{t.listTitle}</h1>
      </div>
      {categories !== null && shows.length === 0 && <p className="st-muted">{t.none}</p>}
      {shows.length > 1 && (
        <div className="st-toolbar" role="group" aria-label={t.show}>
          {shows.map((d) => (
            <button
              key={d}
              type="button"
              className={d === direction ? "st-btn st-btn-primary st-btn-sm" : "st-btn st-btn-ghost st-btn-sm"}
              aria-pressed={d === direction}
              onClick={() => setPicked(d)}
            >
              {t.direction(d)}
            </button>
          ))}
        </div>
      )}
      {direction && <ShowEpisodes key={direction} base={base} t={t} direction={direction} />}
    </section>
  );
}

function ShowEpisodes({ base, t, direction }: { base: EpisodeBase; t: EpisodeTexts; direction: ShowDirection }) {
  const list = useQuery(episodeListQuery(base, direction));
  return (
    <>
      <CreateForm base={base} t={t} direction={direction} next={list.data?.next_number ?? null} />
      {list.isPending && <p className="st-muted" role="status">{t.loading}</p>}
      {list.isError && <div className="st-alert st-alert-error" role="alert">{errorText(list.error, t.loadFailed)}
      </div>}
      {list.data && list.data.episodes.length === 0 && <p className="st-muted">{t.none}</p>}
      {list.data && list.data.episodes.length > 0 && (
        <ul className="ep-list" data-testid="episode-list">
          {list.data.episodes.map((e) => (
            <li key={e.id} className="ep-list-item">
              <Link to={`/${base}/episodes/$id` as "/admin/episodes/$id"} params={{ id: String(e.id) }}>
                <strong>#{e.number}</strong> {e.title}
              </Link>
              <span className="st-muted st-small">
                {formatDate(`${e.air_date}T12:00:00`)} · {t.tracks(e.track_count)}
              </span>
              <span className={e.aired_at ? "st-badge st-badge-success" : "st-badge"}>
                {e.aired_at ? t.aired : t.notAired}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function CreateForm(
  { base, t, direction, next }: { base: EpisodeBase; t: EpisodeTexts; direction: ShowDirection; next: number | null },
) {
  const navigate = useNavigate();
  const create = useCreateEpisode(base);
  const [number, setNumber] = useState("");
  const [title, setTitle] = useState("");
  const [airDate, setAirDate] = useState(today());
  useEffect(() => {
    if (next !== null) setNumber(String(next));
  }, [next]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const episode = await create.mutateAsync({
      direction,
      title,
      air_date: airDate,
      ...(number.trim() ? { number: Number(number) } : {}),
    }).catch(() => null);
    if (episode) {
      await navigate({ to: `/${base}/episodes/$id` as "/admin/episodes/$id", params: { id: String(episode.id) } });
    }
  };
  return (
    <form className="st-section ep-create" onSubmit={submit} aria-label={t.create}>
      <Field label={t.number}>
        <input
          className="st-input"
          name="number"
          inputMode="numeric"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
        />
      </Field>
      <Field label={t.episodeTitle} className="ep-grow">
        <input className="st-input" name="title" required value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label={t.airDate}>
        <input
          className="st-input"
          name="air_date"
          type="date"
          required
          value={airDate}
          onChange={(e) => setAirDate(e.target.value)}
        />
      </Field>
      <button type="submit" className="st-btn st-btn-primary" disabled={create.isPending}>
        {create.isPending ? t.creating : t.create}
      </button>
      {create.isError && (
        <div className="st-alert st-alert-error ep-full" role="alert">{errorText(create.error, t.saveFailed)}</div>
      )}
    </form>
  );
}
