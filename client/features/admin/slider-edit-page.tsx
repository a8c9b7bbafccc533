import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { useRedirectAfter } from "../../components/ui/use-redirect-after.ts";
import { errorText } from "../../lib/api.ts";
import { adminSliderQuery } from "./slider-api.ts";
import { SliderForm } from "./slider-form.tsx";

export function AdminSliderEditPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const tileId = id ? Number(id) : null;
  const isNew = tileId === null;
  useDocumentTitle("Редактирование слайдера");
  const navigate = useNavigate();
  const redirect = useRedirectAfter();
  const query = useQuery({ ...adminSliderQuery(tileId ?? 0), enabled: !isNew });
  const [done, setDone] = useState(false);

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>{isNew ? "Новая плитка слайдера" : "Редактирование слайдера"}</h1>
        <Link to="/admin/slider" className="st-btn">← К слайдеру</Link>
      </div>
      {!isNew && query.isPending && <p className="st-muted">Загрузка...</p>}
      {!isNew && query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить данные плитки")}
        </div>
      )}
      {done && <div className="st-alert st-alert-success" role="status">Плитка успешно сохранена</div>}
      {(isNew || query.data) && !done && (
        <div className="st-section" style={{ maxWidth: 760 }}>
          <SliderForm
            key={query.data?.id ?? "new"}
            tile={query.data ?? null}
            variant="page"
            onCancel={() => void navigate({ to: "/admin/slider" })}
            onSaved={() => {
              setDone(true);
              redirect("/admin/slider");
            }}
          />
        </div>
      )}
    </section>
  );
}
