import type { Hono } from "hono";
import type { ClientRequestOptions, hc } from "hono/client";

/**
 * The typed client's calls without hono's client code (decision 0430): `typedClient<Routes>(base,
 * options)` has `hc`'s type and makes its requests the way `hc` does for what the front end uses:
 * `client.a.b[":id"].$get({ param, query, json, form, header }, { fetch, headers, init })` and
 * `$path(...)`. `hc` also carries cookies, web sockets and `$url`, which every visitor downloaded
 * and no page used.
 */
// deno-lint-ignore no-explicit-any
export function typedClient<Routes extends Hono<any, any, any>>(
  base: string,
  defaults: ClientRequestOptions,
): ReturnType<typeof hc<Routes>> {
  return proxy([], (path, args) => request(base, defaults, path, args)) as ReturnType<typeof hc<Routes>>;
}

interface CallArgs {
  param?: Record<string, string>;
  query?: Record<string, unknown>;
  json?: unknown;
  form?: Record<string, unknown>;
  header?: Record<string, string>;
}

function proxy(path: string[], call: (path: string[], args: unknown[]) => unknown): unknown {
  return new Proxy(() => {}, {
    // Never a promise: `await client.x` must not call it.
    get: (_, key) => (typeof key === "string" && key !== "then" ? proxy([...path, key], call) : undefined),
    apply: (_, __, args) => call(path, args),
  });
}

/** hono's rule: `/:name`, `/:name{pattern}` and `/:name?` take the value; an empty value drops the segment. */
function withParams(url: string, param: Record<string, string> = {}): string {
  for (const [k, v] of Object.entries(param)) {
    url = url.replace(new RegExp(`/:${k}(?:{[^/]+})?\\??(?=/|$)`), () => (v ? `/${v}` : ""));
  }
  return url;
}

function withQuery(url: string, query: Record<string, unknown> | undefined): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) search.append(k, String(item));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

function request(base: string, defaults: ClientRequestOptions, parts: string[], callArgs: unknown[]) {
  const method = parts.at(-1)?.startsWith("$") ? parts.at(-1)!.slice(1) : "";
  const root = base.replace(/\/+$/, "");
  const url = `${root}/${parts.slice(0, method ? -1 : undefined).join("/")}`.replace(/\/index(?=\?|$)/, "");
  const args = (callArgs[0] ?? {}) as CallArgs;
  const target = withQuery(withParams(url, args.param), args.query);
  if (method === "path") return target.slice(root.length).replace(/^\/?/, "/");
  const opt = (callArgs[1] ?? {}) as ClientRequestOptions;
  const headers = new Headers();
  // Headers given as a function (hc allows it) are not used here.
  const given = { ...defaults.headers, ...args.header, ...opt.headers } as Record<string, string | undefined>;
  let body: BodyInit | undefined;
  if (args.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(args.form)) {
      for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) form.append(k, item as string | Blob);
    }
    body = form;
  }
  if (args.json !== undefined) {
    body = JSON.stringify(args.json);
    given["Content-Type"] = "application/json";
  }
  for (const [k, v] of Object.entries(given)) if (v !== undefined) headers.set(k, v);
  const verb = method.toUpperCase();
  return (opt.fetch ?? defaults.fetch ?? fetch)(target, {
    body: verb === "GET" || verb === "HEAD" ? undefined : body,
    method: verb,
    headers,
    ...defaults.init,
    ...opt.init,
  });
}
