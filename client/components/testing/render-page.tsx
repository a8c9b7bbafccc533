import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from "@tanstack/react-router";
import { render } from "@testing-library/react";

/**
 * Renders one page inside a real router (memory history) and a fresh query client, so links,
 * navigation and queries work as in the app. Test-only.
 */
export function renderPage(path: string, Page: () => React.ReactNode, opts: { routePath?: string } = {}) {
  const root = createRootRoute({ component: Outlet });
  const page = createRoute({ getParentRoute: () => root, path: opts.routePath ?? path.split("?")[0], component: Page });
  const other = createRoute({ getParentRoute: () => root, path: "$", component: () => <p>other page</p> });
  const router = createRouter({
    routeTree: root.addChildren([page, other]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router as never} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** A fetch stand-in answering JSON by path; unknown paths answer 404. */
export function fakeFetch(routes: Record<string, (req: Request) => unknown | Response>) {
  const calls: string[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(new URL(String(input instanceof Request ? input.url : input), "http://localhost"), init);
    const path = new URL(req.url).pathname;
    calls.push(path);
    const handler = routes[path];
    if (!handler) return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
    const out = await handler(req);
    return out instanceof Response ? out : Response.json(out);
  };
  return Object.assign(fn, { calls });
}
