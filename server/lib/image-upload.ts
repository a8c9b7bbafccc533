import busboy from "busboy";
import { Readable } from "node:stream";
import { ApiError, badRequest, tooLarge } from "./http-error.ts";
import { type FileStorage, TooLargeError } from "./storage.ts";

/**
 * A multipart form with at most one image, parsed as a stream (busboy) and written straight to
 * public storage. The type is decided by the first bytes (JPEG or PNG magic), never by the name or
 * the declared type; the size limit is enforced while streaming.
 */

export const IMAGE_TOO_LARGE = "Файл слишком большой. Максимальный размер: 2MB.";
export const IMAGE_BAD_FORMAT = "Неподдерживаемый формат изображения. Используйте JPG или PNG.";
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export type ImageKind = "jpg" | "png";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(head: Uint8Array): ImageKind | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpg";
  if (head.length >= 8 && PNG.every((b, i) => head[i] === b)) return "png";
  return null;
}

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
}

export interface ImageFormOptions {
  storage: FileStorage;
  /** Folder under public storage, e.g. `slider`. */
  dir: string;
  /** The form field that carries the file. */
  fileField?: string;
  maxBytes?: number;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    while (!(await reader.read()).done) { /* discard */ }
  } catch { /* the request went away */ }
}

async function storeImage(
  file: Readable,
  opts: Required<ImageFormOptions>,
): Promise<StoredImage> {
  const reader = (Readable.toWeb(file) as ReadableStream<Uint8Array>).getReader();
  let head: Uint8Array = new Uint8Array(0);
  let ended = false;
  while (head.length < PNG.length) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    head = concat(head, value);
  }
  const kind = sniffImage(head);
  if (!kind) {
    if (!ended) await drain(reader);
    throw badRequest(IMAGE_BAD_FORMAT);
  }
  const filename = `${crypto.randomUUID()}.${kind}`;
  const key = `${opts.dir}/${filename}`;
  let sourceDone = ended;
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.enqueue(head);
      if (ended) ctrl.close();
    },
    async pull(ctrl) {
      const { done, value } = await reader.read();
      if (done) {
        sourceDone = true;
        ctrl.close();
      } else ctrl.enqueue(value);
    },
    // Storage stops reading past the limit; the rest is drained below so busboy can finish the form.
    cancel() {},
  });
  try {
    const { size } = await opts.storage.write(key, body, { maxBytes: opts.maxBytes });
    // busboy truncates at its own limit (one byte over ours) and flags the stream.
    if ((file as Readable & { truncated?: boolean }).truncated) {
      await opts.storage.delete(key);
      throw tooLarge(IMAGE_TOO_LARGE);
    }
    return { filename, key, size };
  } catch (err) {
    if (!sourceDone) await drain(reader);
    if (err instanceof TooLargeError) throw tooLarge(IMAGE_TOO_LARGE);
    throw err;
  }
}

/**
 * Parses `req` (multipart/form-data). Text fields are returned as strings; the file, if any, is
 * already stored. On any error nothing is left in storage.
 */
export async function parseImageForm(req: Request, options: ImageFormOptions): Promise<ImageForm> {
  const opts: Required<ImageFormOptions> = { fileField: "image", maxBytes: MAX_IMAGE_BYTES, ...options };
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > opts.maxBytes + 256 * 1024) throw tooLarge(IMAGE_TOO_LARGE);
  if (!req.body) throw badRequest("Пустой запрос");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": req.headers.get("content-type") ?? "" },
      defParamCharset: "utf8",
      limits: { files: 1, fields: 20, parts: 25, fieldSize: 8 * 1024, fileSize: opts.maxBytes + 1 },
    });
  } catch {
    throw badRequest("Некорректный запрос: ожидается multipart/form-data");
  }

  const fields: Record<string, string> = {};
  let image: StoredImage | null = null;
  let failure: unknown = null;
  const jobs: Promise<void>[] = [];

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) failure ??= badRequest("Слишком длинное значение поля");
    else fields[name] = value;
  });
  parser.on("file", (name, stream) => {
    if (name !== opts.fileField || jobs.length > 0) {
      stream.resume();
      return;
    }
    jobs.push(
      storeImage(stream, opts).then(
        (stored) => {
          image = stored;
        },
        (err) => {
          failure ??= err;
        },
      ),
    );
  });
  parser.on("filesLimit", () => (failure ??= badRequest("Можно загрузить только одно изображение")));
  parser.on("fieldsLimit", () => (failure ??= badRequest("Слишком много полей")));
  parser.on("partsLimit", () => (failure ??= badRequest("Слишком много полей")));

  try {
    await new Promise<void>((resolve, reject) => {
      parser.on("close", resolve);
      parser.on("error", reject);
      const source = Readable.fromWeb(req.body as import("node:stream/web").ReadableStream<Uint8Array>);
      source.on("error", reject);
      source.pipe(parser);
    });
  } catch (err) {
    failure ??= err instanceof ApiError ? err : badRequest("Некорректный multipart-запрос");
  }
  await Promise.all(jobs);
  const stored = image as StoredImage | null;
  if (failure) {
    if (stored) await opts.storage.delete(stored.key).catch(() => {});
    throw failure;
  }
  return { fields, image: stored };
}
