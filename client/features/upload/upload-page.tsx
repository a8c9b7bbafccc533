import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { DIRECTION_LABELS } from "../../../domain/directions.ts";
import { SHOW_DIRECTIONS } from "../../../domain/episodes.ts";
import { useEffect, useRef, useState } from "react";
import { CheckIcon } from "../../components/icons.tsx";
import { auth, useAuth } from "../../lib/auth.ts";
import { configQuery } from "../../lib/config-query.ts";
import { HomeSlider } from "./home-slider.tsx";
import { UploadForm } from "./upload-form.tsx";
import { LOGIN_BANNER_MS, UPLOAD_TEXTS } from "./upload-rules.ts";

/** The home page: slider, then the upload form (spec 1 §2 "Upload page"). */
export function UploadPage() {
  const { isAuthenticated } = useAuth();
  const search = useSearch({ from: "/" });
  const navigate = useNavigate();
  const [signedInBanner, setSignedInBanner] = useState(false);
  // Which directions take tracks now (issue 25): a paused one is shown disabled with its message.
  const { data: config } = useQuery(configQuery);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const { access_token: access, refresh_token: refresh } = search;
    if (!access || !refresh || handled.current === access) return;
    handled.current = access;
    // A browser signed in as someone else is asked first (decision 0202).
    auth.acceptTokenLink(access, refresh)
      .then((outcome) => setSignedInBanner(outcome === "signed-in"))
      .catch(() => {
        // Failing to use the tokens leaves the visitor signed out; the address is cleaned all the same.
      })
      .finally(() => {
        navigate({ to: "/", search: { access_token: undefined, refresh_token: undefined }, replace: true });
      });
  }, [search.access_token, search.refresh_token]);

  // Its own effect: cleaning the address changes the search above, whose cleanup must not cancel this.
  useEffect(() => {
    if (!signedInBanner) return;
    const timer = setTimeout(() => setSignedInBanner(false), LOGIN_BANNER_MS);
    return () => clearTimeout(timer);
  }, [signedInBanner]);

  return (
    <section className="page">
      {signedInBanner && (
        <div className="alert alert-success row" role="status" style={{ marginBottom: 20 }}>
          <CheckIcon /> {UPLOAD_TEXTS.signedIn}
        </div>
      )}
      <span className="eyebrow">Демо для лейбла, подкаста и эфира</span>
      <h1>{UPLOAD_TEXTS.title}</h1>
      <p className="page-lead">
        Пришлите свой drum&bass — мы слушаем всё, что приходит. Выберите направления, и трек попадёт к нужным людям.
      </p>
      {/* Issue 35: the shows' aired episodes with their tracklists. */}
      <nav className="muted home-shows" aria-label="Выпуски в эфире">
        Что прозвучало в эфире: {SHOW_DIRECTIONS.map((d, i) => (
          <span key={d}>
            {i > 0 && " · "}
            <Link to="/shows/$direction" params={{ direction: d }}>{DIRECTION_LABELS[d]}</Link>
          </span>
        ))}
      </nav>
      <HomeSlider />
      <UploadForm
        signedIn={isAuthenticated}
        onNavigate={(to) => navigate({ to })}
        intake={config?.intake}
      />
    </section>
  );
}
