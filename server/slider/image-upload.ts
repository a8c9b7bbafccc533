import { SLIDER_IMAGE_MAX_BYTES, SLIDER_TEXTS } from "../../domain/slider.ts";
import { badRequest, tooLarge } from "../lib/http-error.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { IMAGE_HEAD_BYTES, receiveMultipart, sniffImage } from "../http/multipart.ts";

/**
 * A multipart form with at most one image (the slider's tiles), read with the shared multipart
 * reader: the image goes straight to public storage. The type is decided by the first bytes (JPEG or
 * PNG), never by the name or the declared type; the size limit is enforced while streaming
 * (decision 0044).
 */

export interface StoredImage {
  /** `<uuid>.<ext>`: the name kept in the database. */
  filename: string;
  /** The storage key (`<dir>/<filename>`). */
  key: string;
  size: number;
}

export interface ImageForm {
  fields: Record<string, string>;
  image: StoredImage | null;
  /** Deletes the stored image: for a form refused after it was read. */
  discard(): Promise<void>;
}

export interface ImageFormOptions {
  storage: FileStorage;
  /** Folder under public storage, e.g. `slider`. */
  dir: string;
  /** The form field that carries the file. */
  fileField?: string;
  maxBytes?: number;
  /** UPLOAD_IDLE_TIMEOUT_S in milliseconds: a body silent this long is cut off with 408. */
  idleTimeoutMs: number;
}

/**
 * Parses `req` (multipart/form-data). Text fields are returned as strings; the file, if any, is
 * already stored. On any error nothing is left in storage.
 */
export async function parseImageForm(req: Request, options: ImageFormOptions): Promise<ImageForm> {
  const { storage, dir, fileField = "image", maxBytes = SLIDER_IMAGE_MAX_BYTES } = options;
  const form = await receiveMultipart(req, {
    files: {
      [fileField]: {
        storage,
        maxBytes,
        headBytes: IMAGE_HEAD_BYTES,
        accept(_part, head) {
          const kind = sniffImage(head);
          if (!kind) throw badRequest(SLIDER_TEXTS.imageBadFormat);
          return `${dir}/${crypto.randomUUID()}.${kind}`;
        },
        tooLarge: () => tooLarge(SLIDER_TEXTS.imageTooLarge),
      },
    },
    onField(_name, _value, { truncated }) {
      if (truncated) throw badRequest("Слишком длинное значение поля");
    },
    limits: { files: 1, fields: 20, parts: 25, fieldSize: 8 * 1024 },
    idleTimeoutMs: options.idleTimeoutMs,
    maxBody: { bytes: maxBytes + 256 * 1024, error: tooLarge(SLIDER_TEXTS.imageTooLarge) },
    messages: {
      notMultipart: "Некорректный запрос: ожидается multipart/form-data",
      noBody: "Пустой запрос",
      aborted: "Некорректный multipart-запрос",
      tooManyFiles: badRequest("Можно загрузить только одно изображение"),
      tooManyFields: badRequest("Слишком много полей"),
      tooManyParts: badRequest("Слишком много полей"),
    },
  });
  const file = form.files[0];
  const image = file ? { filename: file.key.slice(dir.length + 1), key: file.key, size: file.size } : null;
  return { fields: form.fields, image, discard: form.discard };
}
