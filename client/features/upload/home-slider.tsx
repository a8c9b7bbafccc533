import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { isHttpUrl, isSitePath } from "../../../domain/tile-link.ts";
import { ArrowLeftIcon, ArrowRightIcon } from "../../components/icons.tsx";
import { safeHref, sliderQuery, type SliderTile, soundCloudPlayerUrl } from "./api.ts";

/**
 * The home-page tiles: link tiles (an image that leads somewhere) and track tiles (the SoundCloud
 * player). A scroll-snap strip: swipe on phones, arrows and dots with the keyboard or a mouse.
 * Nothing is shown while loading or when there are no tiles: the upload form is what matters here.
 */
export function HomeSlider() {
  const { data: tiles = [] } = useQuery(sliderQuery);
  const trackRef = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const visible = tiles.filter(isRenderable);

  useEffect(() => {
    const el = trackRef.current;
    if (!el) return;
    const onScroll = () => setIndex(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)));
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [visible.length]);

  if (visible.length === 0) return null;

  const go = (i: number) => {
    const el = trackRef.current;
    if (!el) return;
    const next = (i + visible.length) % visible.length;
    el.scrollTo({ left: next * el.clientWidth, behavior: "smooth" });
    setIndex(next);
  };

  return (
    <section className="slider" aria-roledescription="карусель" aria-label="Новости и релизы">
      <div className="slider-track" ref={trackRef}>
        {visible.map((tile, i) => (
          <div
            key={tile.id}
            className="slide"
            role="group"
            aria-roledescription="слайд"
            aria-label={`${i + 1} из ${visible.length}`}
          >
            <Tile tile={tile} />
          </div>
        ))}
      </div>
      {visible.length > 1 && (
        <div className="slider-controls">
          <div className="slider-dots">
            {visible.map((tile, i) => (
              <button
                key={tile.id}
                type="button"
                className="slider-dot"
                aria-label={`Слайд ${i + 1}`}
                aria-current={i === index}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <div className="slider-arrows">
            <button type="button" className="icon-btn" aria-label="Предыдущий слайд" onClick={() => go(index - 1)}>
              <ArrowLeftIcon />
            </button>
            <button type="button" className="icon-btn" aria-label="Следующий слайд" onClick={() => go(index + 1)}>
              <ArrowRightIcon />
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function isRenderable(tile: SliderTile): boolean {
  return tile.tile_type === "track" ? Boolean(safeHref(tile.track_url)) : Boolean(tile.image_url);
}

function Tile({ tile }: { tile: SliderTile }) {
  if (tile.tile_type === "track") {
    return (
      <div className="slide-track">
        <iframe
          title="Трек на SoundCloud"
          src={soundCloudPlayerUrl(tile.track_url!)}
          height={166}
          loading="lazy"
          allow="autoplay"
        />
      </div>
    );
  }
  return <LinkTile tile={tile} />;
}

/** Where a link tile leads: a page of this app (followed without reloading) or another site. */
export function tileTarget(url: string | null | undefined): { inApp: string } | { external: URL } | null {
  const s = url?.trim() ?? "";
  if (isSitePath(s)) return { inApp: s };
  if (!isHttpUrl(s)) return null;
  const u = new URL(s);
  return u.origin === location.origin ? { inApp: u.pathname + u.search + u.hash } : { external: u };
}

function LinkTile({ tile }: { tile: SliderTile }) {
  const navigate = useNavigate();
  const target = tileTarget(tile.redirect_url);
  const image = <img src={tile.image_url!} alt="" loading="lazy" />;
  if (!target) return <div className="slide-link">{image}</div>;
  if ("external" in target) {
    return (
      <a
        className="slide-link"
        href={target.external.href}
        aria-label={`Открыть ${target.external.hostname}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        {image}
      </a>
    );
  }
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    // A modified or middle click keeps the browser's own meaning (a new tab or window).
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate({ href: target.inApp });
  };
  return (
    <a className="slide-link" href={target.inApp} aria-label={`Открыть ${target.inApp}`} onClick={follow}>
      {image}
    </a>
  );
}
