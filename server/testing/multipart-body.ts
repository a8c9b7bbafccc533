/**
 * Builds multipart/form-data bodies by hand, as streams, for tests and the upload benchmark: unlike
 * `FormData`, a part can be a stream (a large file never held in memory) or a stream that fails
 * midway (a client that disconnects).
 */
export type Part =
  | { name: string; value: string }
  | {
    name: string;
    filename: string;
    type?: string;
    data: Uint8Array | (() => ReadableStream<Uint8Array>);
    /** Needed for `contentLength` when `data` is a stream. */
    size?: number;
  };

const enc = new TextEncoder();

function quote(s: string): string {
  return s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export interface MultipartBody {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** Known when every part's size is known. */
  contentLength: number | null;
}

export function multipartBody(
  parts: Part[],
  boundary = `----np${crypto.randomUUID().replaceAll("-", "")}`,
): MultipartBody {
  const heads = parts.map((p) => {
    const disposition = "filename" in p
      ? `form-data; name="${quote(p.name)}"; filename="${quote(p.filename)}"`
      : `form-data; name="${quote(p.name)}"`;
    const type = "filename" in p ? `\r\nContent-Type: ${p.type ?? "audio/mpeg"}` : "";
    return enc.encode(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`);
  });
  const tail = enc.encode(`--${boundary}--\r\n`);
  const crlf = enc.encode("\r\n");

  let contentLength: number | null = tail.byteLength;
  parts.forEach((p, i) => {
    const size = "filename" in p
      ? (p.data instanceof Uint8Array ? p.data.byteLength : p.size)
      : enc.encode(p.value).byteLength;
    if (size === undefined || contentLength === null) contentLength = null;
    else contentLength += heads[i].byteLength + size + crlf.byteLength;
  });

  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      yield heads[i];
      if (!("filename" in p)) yield enc.encode(p.value);
      else if (p.data instanceof Uint8Array) yield p.data;
      else yield* p.data();
      yield crlf;
    }
    yield tail;
  }
  return {
    body: ReadableStream.from(chunks()),
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
  };
}

/** A stream of `total` bytes repeating `pattern`, sent in chunks; it errors after `failAfter` bytes when given. */
export function repeatingStream(
  pattern: Uint8Array,
  total: number,
  opts: { chunk?: number; failAfter?: number } = {},
): ReadableStream<Uint8Array> {
  const chunkSize = opts.chunk ?? 64 * 1024;
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (opts.failAfter !== undefined && sent >= opts.failAfter) {
        ctrl.error(new Error("connection reset by the client"));
        return;
      }
      if (sent >= total) {
        ctrl.close();
        return;
      }
      const n = Math.min(chunkSize, total - sent);
      const out = new Uint8Array(n);
      for (let o = 0; o < n;) {
        const from = (sent + o) % pattern.byteLength;
        const take = Math.min(pattern.byteLength - from, n - o);
        out.set(pattern.subarray(from, from + take), o);
        o += take;
      }
      sent += n;
      ctrl.enqueue(out);
    },
  });
}

/**
 * One `POST /api/upload` of these file parts (to Neuropunk Records unless told), as the benches send it;
 * the new tracks' ids, or an error naming the status and answer.
 */
export async function postTracks(
  baseUrl: string,
  headers: Record<string, string>,
  files: Part[],
  directions = "label_neuropunk",
): Promise<number[]> {
  const mp = multipartBody([{ name: "directions", value: directions }, ...files]);
  const res = await fetch(`${baseUrl}/api/upload`, {
    method: "POST",
    headers: { ...headers, "content-type": mp.contentType },
    body: mp.body,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.track_ids as number[];
}
