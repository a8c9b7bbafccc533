/**
 * End-to-end test interface (see e2e/README.md). Test files register tests with `test()`;
 * scripts/e2e.ts builds the client, starts the real server, launches Chromium and runs them one
 * after another, giving each a `TestContext`.
 */
import type { Browser, Page } from "playwright-core";

export { expect } from "vitest";
export type { Browser, Page } from "playwright-core";

export interface E2EServer {
  /** `http://127.0.0.1:<port>`, no trailing slash; also the server's PUBLIC_URL. */
  baseUrl: string;
  dataDir: string;
  staticDir: string;
  /** The environment the server was started with (beyond the inherited basics). */
  env: Record<string, string>;
  /** The address `deno task login-link <username>` prints for this server. */
  loginLink(username: string): Promise<string>;
}

/** Options for `t.startServer`. */
export interface StartServerOptions {
  /**
   * The module to run instead of `server/main.ts`, relative to the repository: a test-only entry
   * under `server/testing/` (e.g. `server/testing/slow-processing-server.ts`).
   */
  entry?: string;
}

/** A server a test started itself. */
export interface ExtraServer extends E2EServer {
  /** The server process's id (its Deno.pid). */
  pid: number;
  /** SIGKILL, as a crash or a host stopping the instance: no shutdown, nothing finished or released. */
  crash(): Promise<void>;
  /** The last lines of its log (stdout and stderr). */
  logTail(lines?: number): Promise<string>;
}

export interface Viewport {
  width: number;
  height: number;
}

export interface TestContext {
  /** The shared server of the run: built client, temp data, seeded. */
  server: E2EServer;
  /**
   * Another server with extra environment; same build, own temp data, seeded (the database named by
   * `env.DATABASE_URL` when given, so several servers can share one); stopped after the test.
   */
  startServer(env?: Record<string, string>, opts?: StartServerOptions): Promise<ExtraServer>;
  /** A page in a fresh browser context (own storage); closed after the test. */
  page(viewport?: Viewport): Promise<Page>;
  /** Full-page PNG in test-artifacts/screenshots/<name>.png; returns the path. */
  screenshot(page: Page, name: string): Promise<string>;
  browser: Browser;
}

export interface TestOptions {
  /** Per-test time limit in ms (default 60 000). */
  timeout?: number;
}

export interface RegisteredTest {
  name: string;
  file: string;
  fn: (t: TestContext) => Promise<void> | void;
  timeout: number;
}

export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/** Filled as test files are imported; read by the runner. */
export const registeredTests: RegisteredTest[] = [];

/** The file being imported by the runner, so results can name it. */
let currentFile = "";
export function setCurrentFile(file: string) {
  currentFile = file;
}

export function test(name: string, fn: RegisteredTest["fn"], opts: TestOptions = {}): void {
  registeredTests.push({ name, file: currentFile, fn, timeout: opts.timeout ?? DEFAULT_TEST_TIMEOUT_MS });
}
