import { useEffect, useId, useMemo, useState } from "react";
import { SLIDER_IMAGE_MAX_BYTES, SLIDER_TEXTS, tileProblem } from "../../../domain/slider.ts";
import { Field } from "../../components/ui/field.tsx";
import { errorText } from "../../lib/api.ts";
import { sliderImageUrl, type SliderTile, useSaveSliderTile } from "./slider-api.ts";

export const SLIDER_PLAYER_HEIGHT = 166;

/** JPEG or PNG by type, or by name when the browser gives no type. */
export function isAllowedImage(file: File): boolean {
  if (file.type) return file.type === "image/jpeg" || file.type === "image/png";
  return /\.(jpe?g|png)$/i.test(file.name);
}

/** The streaming service's embedded player for a track tile (SoundCloud widget). */
export function playerSrc(trackUrl: string): string | null {
  if (!/^https?:\/\//i.test(trackUrl.trim())) return null;
  return `https://w.soundcloud.com/player/?url=${encodeURIComponent(trackUrl.trim())}` +
    "&color=%23c6ff00&auto_play=false&hide_related=true&show_comments=false&show_reposts=false&visual=false";
}

export function TrackPlayer({ url, title }: { url: string; title: string }) {
  const src = playerSrc(url);
  if (!src) return null;
  return (
    <iframe
      className="st-tile-player"
      title={title}
      src={src}
      height={SLIDER_PLAYER_HEIGHT}
      loading="lazy"
      allow="autoplay"
      referrerPolicy="no-referrer"
    />
  );
}

interface SliderFormProps {
  tile: SliderTile | null;
  /** The modal and the edit page word the bad-format error differently (spec 2 §5). */
  variant: "modal" | "page";
  onSaved: (tile: SliderTile | null) => void;
  onCancel: () => void;
  /** Tells the modal to block closing while saving. */
  onSavingChange?: (saving: boolean) => void;
}

/** Tile type, URL, image (preview and removal) or track URL (with the player preview). */
export function SliderForm({ tile, variant, onSaved, onCancel, onSavingChange }: SliderFormProps) {
  const id = useId();
  const [tileType, setTileType] = useState<"link" | "track">(tile?.tile_type ?? "link");
  const [redirectUrl, setRedirectUrl] = useState(tile?.redirect_url ?? "");
  const [trackUrl, setTrackUrl] = useState(tile?.track_url ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [keptImage, setKeptImage] = useState<string | null>(tile?.image_filename ?? null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [inputKey, setInputKey] = useState(0);
  const save = useSaveSliderTile();

  const fileUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (fileUrl) URL.revokeObjectURL(fileUrl);
  }, [fileUrl]);
  useEffect(() => onSavingChange?.(saving), [saving]);

  // keptImage is either the tile's own image or nothing (after removal).
  const preview = fileUrl ??
    (keptImage ? sliderImageUrl({ image_filename: keptImage, image_url: tile?.image_url ?? null }) : null);
  const hasImage = Boolean(file || keptImage);
  const linkWithoutImage = tileType === "link" && !hasImage;

  const chooseType = (t: "link" | "track") => {
    setTileType(t);
    setError(null);
  };

  const pick = (f: File | undefined) => {
    if (!f) return;
    if (!isAllowedImage(f)) {
      setError(variant === "modal" ? SLIDER_TEXTS.imageBadFormat : SLIDER_TEXTS.imageBadFormatPage);
      setInputKey((k) => k + 1);
      return;
    }
    if (f.size > SLIDER_IMAGE_MAX_BYTES) {
      setError(SLIDER_TEXTS.imageTooLarge);
      setInputKey((k) => k + 1);
      return;
    }
    setError(null);
    setFile(f);
  };

  const removeImage = () => {
    setFile(null);
    setKeptImage(null);
    setInputKey((k) => k + 1);
  };

  const submit = async () => {
    if (saving) return;
    const refused = tileProblem({
      tile_type: tileType,
      redirect_url: redirectUrl,
      track_url: trackUrl,
      has_image: hasImage,
    });
    if (refused) return setError(refused);
    setError(null);
    setSaving(true);
    let body: FormData | Record<string, unknown>;
    if (file) {
      const form = new FormData();
      form.set("tile_type", tileType);
      if (tileType === "link") form.set("redirect_url", redirectUrl.trim());
      else form.set("track_url", trackUrl.trim());
      form.set("image", file, file.name);
      body = form;
    } else {
      body = {
        tile_type: tileType,
        redirect_url: tileType === "link" ? redirectUrl.trim() : null,
        track_url: tileType === "track" ? trackUrl.trim() : null,
        image_filename: keptImage,
      };
    }
    try {
      const res = await save.mutateAsync({ id: tile ? tile.id : null, body });
      setSaving(false);
      onSaved(res.slider ?? null);
    } catch (err) {
      setError(errorText(err, "Не удалось сохранить плитку"));
      setSaving(false);
    }
  };

  return (
    <form
      className="st-stack"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      <fieldset className="st-fieldset">
        <legend className="st-label" style={{ marginBottom: 8 }}>Тип плитки</legend>
        <div className="st-radio-row">
          <label className="st-check">
            <input type="radio" name={`${id}-type`} checked={tileType === "link"} onChange={() => chooseType("link")} />
            <span>Ссылка</span>
          </label>
          <label className="st-check">
            <input
              type="radio"
              name={`${id}-type`}
              checked={tileType === "track"}
              onChange={() => chooseType("track")}
            />
            <span>Трек</span>
          </label>
        </div>
      </fieldset>

      {tileType === "link" && (
        <>
          {/* Text, not type="url": a path on this site such as /about is a valid link too. */}
          <Field label="URL ссылки">
            <input
              className="st-input"
              type="text"
              inputMode="url"
              autoComplete="off"
              placeholder="https://… или /about"
              value={redirectUrl}
              onChange={(e) => setRedirectUrl(e.target.value)}
            />
          </Field>
          <div className="st-field">
            <label className="st-label" htmlFor={`${id}-image`}>Изображение</label>
            {preview && (
              <div className="st-image-preview">
                <img src={preview} alt="Предпросмотр изображения плитки" />
                <button type="button" className="st-btn st-btn-sm st-btn-danger st-image-remove" onClick={removeImage}>
                  Удалить изображение
                </button>
              </div>
            )}
            <input
              key={inputKey}
              id={`${id}-image`}
              className="st-input"
              type="file"
              accept="image/jpeg,image/png,.jpg,.jpeg,.png"
              aria-describedby={linkWithoutImage ? `${id}-image-hint ${id}-image-warning` : `${id}-image-hint`}
              onChange={(e) => pick(e.target.files?.[0])}
            />
            <small className="st-hint" id={`${id}-image-hint`}>
              JPG или PNG, не больше 2MB. Рекомендуемый размер: 400x300.
            </small>
            {linkWithoutImage && (
              <small className="st-warning-text" id={`${id}-image-warning`}>{SLIDER_TEXTS.imageMissingWarning}</small>
            )}
          </div>
        </>
      )}

      {tileType === "track" && (
        <>
          <Field label="URL трека">
            <input
              className="st-input"
              type="url"
              placeholder="https://soundcloud.com/..."
              value={trackUrl}
              onChange={(e) => setTrackUrl(e.target.value)}
            />
          </Field>
          {playerSrc(trackUrl) && <TrackPlayer url={trackUrl} title="Предпросмотр трека" />}
        </>
      )}

      <div className="st-form-actions">
        <button type="button" className="st-btn" onClick={onCancel} disabled={saving}>Отмена</button>
        <button type="submit" className="st-btn st-btn-primary" disabled={saving || linkWithoutImage}>
          {saving ? "Сохранение..." : "Сохранить"}
        </button>
      </div>
    </form>
  );
}
