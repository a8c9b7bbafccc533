import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { DIRECTION_LABELS } from "../../../domain/directions.ts";
import { formatCue, isShowDirection } from "../../../domain/episodes.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { client, errorText, read } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import "./show-page.css";

/**
 * /shows/{direction} (issue 35): a show's aired episodes, newest first, each with its tracklist
 * and link. Public and Russian; it reads only GET /api/shows/{direction} (no staff code here).
 */
export function ShowPage() {
  const { direction } = useParams({ strict: false }) as { direction: string };
  const known = isShowDirection(direction);
  useDocumentTitle(known ? `${DIRECTION_LABELS[direction]}: выпуски` : "Выпуски");
  const show = useQuery({
    queryKey: ["shows", direction],
    queryFn: () => read(client.shows[":direction"].$get({ param: { direction } })),
    enabled: known,
  });
  return (
    <section className="page show-page">
      <span className="eyebrow">В эфире</span>
      <h1>{known ? DIRECTION_LABELS[direction] : "Такой передачи нет"}</h1>
      {known && show.isPending && <p className="muted" role="status">Загрузка...</p>}
      {show.isError && (
        <div className="alert alert-error" role="alert">{errorText(show.error, "Не удалось загрузить выпуски")}</div>
      )}
      {show.data && show.data.episodes.length === 0 && <p className="muted">Выпусков в эфире пока не было.</p>}
      {show.data?.episodes.map((e) => (
        <article key={e.number} className="show-episode" data-testid="show-episode">
          <h2>{e.name} — {e.title}</h2>
          <p className="muted">
            {formatDate(e.aired_at)}
            {e.url && (
              <>
                {" · "}
                <a href={e.url} target="_blank" rel="noopener noreferrer">Слушать выпуск</a>
              </>
            )}
          </p>
          <ol className="show-tracklist">
            {e.tracklist.map((l) => (
              <li key={l.position}>
                {l.at_s !== null && <span className="show-cue">{formatCue(l.at_s)}</span>}
                <span>
                  {l.artist} – {l.title}
                  {l.version ? ` (${l.version})` : ""} <span className="muted">[{l.label}]</span>
                </span>
              </li>
            ))}
          </ol>
        </article>
      ))}
    </section>
  );
}
