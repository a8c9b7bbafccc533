/**
 * The Telegram web view, without Telegram's script (issue 36, docs/decisions/0382): the launch
 * parameters come from the address (`#tgWebAppData=…&tgWebAppThemeParams=…`, as Telegram opens a
 * Mini App); the back button, the main button and `requestWriteAccess` go through
 * `window.Telegram.WebApp` when the page has one, else through the web view's own event channel
 * (`TelegramWebviewProxy.postEvent`, answers arriving at `Telegram.WebView.receiveEvent`), which is
 * what Telegram's script itself speaks. Outside Telegram there is no bridge and the page shows its
 * own buttons only.
 */

type Handler = () => void;

interface TgButton {
  show(): void;
  hide(): void;
  onClick(cb: Handler): void;
  offClick(cb: Handler): void;
  setText?(text: string): void;
}

interface TgWebApp {
  initData?: string;
  themeParams?: Record<string, string>;
  ready?(): void;
  expand?(): void;
  BackButton?: TgButton;
  MainButton?: TgButton;
  requestWriteAccess?(cb?: (granted: boolean) => void): void;
}

interface TgWindow {
  Telegram?: { WebApp?: TgWebApp; WebView?: { receiveEvent?: (type: string, data: unknown) => void } };
  TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
}

export interface LaunchParams {
  initData: string | null;
  theme: Record<string, string> | null;
}

const LAUNCH_KEY = "np-tg-launch";

/** Reads `tgWebAppData` and `tgWebAppThemeParams` from an address's fragment. */
export function parseLaunchHash(hash: string): LaunchParams {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const initData = params.get("tgWebAppData") || null;
  let theme: Record<string, string> | null = null;
  const rawTheme = params.get("tgWebAppThemeParams");
  if (rawTheme) {
    try {
      const parsed = JSON.parse(rawTheme);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) theme = parsed;
    } catch {
      theme = null;
    }
  }
  return { initData, theme };
}

/**
 * This launch's parameters: from the address when it has them (then kept for the tab's life, and
 * the fragment taken out of the address, which could otherwise be copied with the person's data in
 * it), else the ones kept, else `window.Telegram.WebApp`'s.
 */
export function launchParams(): LaunchParams {
  const w = globalThis as unknown as TgWindow;
  const fromHash = parseLaunchHash(globalThis.location?.hash ?? "");
  if (fromHash.initData) {
    sessionStorage.setItem(LAUNCH_KEY, JSON.stringify(fromHash));
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  let kept: LaunchParams | null = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(LAUNCH_KEY) ?? "null");
  } catch {
    kept = null;
  }
  const app = w.Telegram?.WebApp;
  return {
    initData: fromHash.initData ?? kept?.initData ?? (app?.initData || null),
    theme: app?.themeParams && Object.keys(app.themeParams).length
      ? app.themeParams
      : fromHash.theme ?? kept?.theme ?? null,
  };
}

/** Telegram's theme colours as the site's colour variables (only `#rrggbb` values are taken). */
const THEME_VARS: Record<string, string[]> = {
  bg_color: ["--bg"],
  secondary_bg_color: ["--bg-elev"],
  text_color: ["--text"],
  hint_color: ["--muted", "--border"],
  button_color: ["--accent"],
  button_text_color: ["--accent-ink"],
  link_color: ["--info"],
};

/** Puts the theme on the page; the returned function takes it off again. */
export function applyTheme(theme: Record<string, string> | null): () => void {
  const root = document.documentElement;
  const set: string[] = [];
  for (const [key, vars] of Object.entries(THEME_VARS)) {
    const value = theme?.[key];
    if (typeof value !== "string" || !/^#[0-9a-fA-F]{6}$/.test(value)) continue;
    for (const v of vars) {
      root.style.setProperty(v, value);
      set.push(v);
    }
  }
  return () => set.forEach((v) => root.style.removeProperty(v));
}

export interface Bridge {
  ready(): void;
  /** Shows the back button calling `onClick`, or hides it (null). Returns the undo. */
  backButton(onClick: Handler | null): () => void;
  /** Shows the main button with `text` calling `onClick`, or hides it (null). Returns the undo. */
  mainButton(text: string | null, onClick?: Handler): () => void;
  /** Asks the person to let the bot write to them; null where the web view cannot ask. */
  requestWriteAccess: ((done: (granted: boolean) => void) => void) | null;
}

function webAppBridge(app: TgWebApp): Bridge {
  const button = (b: TgButton | undefined, text: string | null, onClick?: Handler) => {
    if (!b) return () => {};
    if (text === null || !onClick) {
      b.hide();
      return () => {};
    }
    b.setText?.(text);
    b.onClick(onClick);
    b.show();
    return () => {
      b.offClick(onClick);
      b.hide();
    };
  };
  return {
    ready() {
      app.ready?.();
      app.expand?.();
    },
    backButton: (onClick) => button(app.BackButton, onClick ? "" : null, onClick ?? undefined),
    mainButton: (text, onClick) => button(app.MainButton, text, onClick),
    requestWriteAccess: app.requestWriteAccess ? (done) => app.requestWriteAccess!(done) : null,
  };
}

function proxyBridge(w: TgWindow): Bridge {
  const proxy = w.TelegramWebviewProxy!;
  const post = (type: string, data?: unknown) => proxy.postEvent(type, data === undefined ? "" : JSON.stringify(data));
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  w.Telegram ??= {};
  w.Telegram.WebView ??= {};
  const previous = w.Telegram.WebView.receiveEvent;
  w.Telegram.WebView.receiveEvent = (type, data) => {
    previous?.(type, data);
    listeners.get(type)?.forEach((l) => l(data));
  };
  const on = (type: string, l: (data: unknown) => void) => {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type)!.add(l);
    return () => listeners.get(type)?.delete(l);
  };
  return {
    ready() {
      post("web_app_ready");
      post("web_app_expand");
    },
    backButton(onClick) {
      post("web_app_setup_back_button", { is_visible: Boolean(onClick) });
      if (!onClick) return () => {};
      const off = on("back_button_pressed", onClick);
      return () => {
        off();
        post("web_app_setup_back_button", { is_visible: false });
      };
    },
    mainButton(text, onClick) {
      if (text === null || !onClick) {
        post("web_app_setup_main_button", { is_visible: false });
        return () => {};
      }
      post("web_app_setup_main_button", { is_visible: true, is_active: true, text });
      const off = on("main_button_pressed", onClick);
      return () => {
        off();
        post("web_app_setup_main_button", { is_visible: false });
      };
    },
    requestWriteAccess(done) {
      const off = on("write_access_requested", (data) => {
        off();
        done((data as { status?: string } | null)?.status === "allowed");
      });
      post("web_app_request_write_access");
    },
  };
}

/** The bridge of this page, or null outside Telegram. */
export function telegramBridge(): Bridge | null {
  const w = globalThis as unknown as TgWindow;
  if (w.Telegram?.WebApp) return webAppBridge(w.Telegram.WebApp);
  if (w.TelegramWebviewProxy?.postEvent) return proxyBridge(w);
  return null;
}
