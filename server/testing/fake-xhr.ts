/**
 * Test kit: a stand-in for XMLHttpRequest whose answers a handler gives by method and address, for
 * the upload's tests (the page and the resumable client send every request through XHR).
 */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  withCredentials: boolean;
}

/** The handler's answer: a status and JSON body, "network" (no answer), or "hold" (answered by hand). */
export type FakeAnswer = { status: number; body?: unknown } | "network" | "hold";

export class FakeXhr {
  static sent: SentRequest[] = [];
  static held: FakeXhr[] = [];
  static handler: (req: SentRequest) => FakeAnswer = () => ({ status: 500 });
  static reset(handler: (req: SentRequest) => FakeAnswer) {
    FakeXhr.sent = [];
    FakeXhr.held = [];
    FakeXhr.handler = handler;
  }

  status = 0;
  responseText = "";
  timeout = 0;
  withCredentials = false;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
    const req: SentRequest = {
      method: this.method,
      url: this.url,
      headers: this.headers,
      body,
      withCredentials: this.withCredentials,
    };
    FakeXhr.sent.push(req);
    const answer = FakeXhr.handler(req);
    if (answer === "hold") {
      FakeXhr.held.push(this);
      return;
    }
    queueMicrotask(() => {
      if (answer === "network") this.onerror?.();
      else this.respond(answer.status, answer.body ?? null);
    });
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === null ? "" : JSON.stringify(body);
    this.onload?.();
  }
}
