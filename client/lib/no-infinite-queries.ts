/**
 * TanStack Query's infinite-query behaviour, in the build (vite.config.ts, decision 0433): no page of
 * this app pages a query (client/lib/library-trims.test.ts checks the sources), so query-core's
 * module, 0.4 KB of every visitor's download, is replaced by one that says so if that ever changes.
 */
const unused = (): never => {
  throw new Error("Infinite queries are not built into this app: see client/lib/no-infinite-queries.ts");
};

export const infiniteQueryBehavior = unused;
export const hasNextPage = unused;
export const hasPreviousPage = unused;
