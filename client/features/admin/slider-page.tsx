import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { ConfirmDialog, Modal } from "../../components/ui/modal.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { adminSlidersQuery, sliderImageUrl, type SliderTile, useDeleteSliderTile } from "./slider-api.ts";
import { SliderForm, TrackPlayer } from "./slider-form.tsx";

export function AdminSliderPage() {
  useDocumentTitle("Управление слайдером");
  const query = useQuery(adminSlidersQuery());
  const deleteTile = useDeleteSliderTile();
  const tiles = query.data ?? [];
  const [editing, setEditing] = useState<{ tile: SliderTile | null } | null>(null);
  const [saving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<SliderTile | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setError(null);
    try {
      await deleteTile.mutateAsync(toDelete.id);
    } catch (err) {
      setError(errorText(err, "Не удалось удалить плитку", "Ошибка удаления плитки"));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Управление слайдером</h1>
        <div className="st-page-actions">
          <Link to="/admin/slider/edit" className="st-btn">Открыть редактор</Link>
          <button type="button" className="st-btn st-btn-primary" onClick={() => setEditing({ tile: null })}>
            Добавить плитку
          </button>
        </div>
      </div>
      <p className="st-muted st-small" style={{ marginTop: -8 }}>Рекомендуемый размер изображения: 400x300.</p>

      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить плитки слайдера")}
        </div>
      )}
      {query.isPending && <p className="st-muted">Загрузка...</p>}
      {query.isSuccess && tiles.length === 0 && (
        <div className="st-section st-empty">
          Плиток пока нет. Добавьте плитки, чтобы они появились в слайдере на главной странице.
        </div>
      )}

      <div className="st-tiles">
        {tiles.map((tile) => {
          const image = sliderImageUrl(tile);
          return (
            <article key={tile.id} className="st-tile" data-tile-id={tile.id}>
              {tile.tile_type === "link"
                ? (
                  <div className="st-tile-media">
                    {image
                      ? <img src={image} alt="Изображение плитки" loading="lazy" />
                      : <span className="st-muted">Нет изображения</span>}
                  </div>
                )
                : <TrackPlayer url={tile.track_url ?? ""} title={`Плеер: ${tile.track_url ?? ""}`} />}
              <div className="st-tile-body">
                <span className="st-badges">
                  <span className={tile.tile_type === "link" ? "st-badge st-badge-info" : "st-badge st-badge-accent"}>
                    {tile.tile_type === "link" ? "Ссылка" : "Трек"}
                  </span>
                </span>
                {tile.tile_type === "link"
                  ? tile.redirect_url && (
                    <a className="st-tile-url" href={tile.redirect_url} target="_blank" rel="noopener noreferrer">
                      {tile.redirect_url}
                    </a>
                  )
                  : tile.track_url && (
                    <a className="st-tile-url" href={tile.track_url} target="_blank" rel="noopener noreferrer">
                      {tile.track_url}
                    </a>
                  )}
                <div className="st-tile-actions">
                  <button type="button" className="st-btn st-btn-sm" onClick={() => setEditing({ tile })}>
                    Изменить
                  </button>
                  <Link to="/admin/slider/$id/edit" params={{ id: String(tile.id) }} className="st-btn st-btn-sm">
                    Редактор
                  </Link>
                  <button type="button" className="st-btn st-btn-sm st-btn-danger" onClick={() => setToDelete(tile)}>
                    Удалить
                  </button>
                </div>
              </div>
            </article>
          );
        })}
      </div>

      <Modal
        open={editing !== null}
        title={editing?.tile ? "Редактирование плитки" : "Новая плитка"}
        onClose={() => setEditing(null)}
        closeDisabled={saving}
        size="lg"
      >
        {editing && (
          <SliderForm
            tile={editing.tile}
            variant="modal"
            onSavingChange={setSaving}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
            }}
          />
        )}
      </Modal>

      <ConfirmDialog
        open={toDelete !== null}
        title="Удаление плитки"
        message="Вы уверены, что хотите удалить эту плитку?"
        warning="Это действие нельзя отменить."
        confirmLabel="Удалить"
        busyLabel="Удаление..."
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
