import * as runtime from "react/jsx-runtime";

/**
 * React's JSX runtime as plain module bindings, for the build (vite.config.ts, decision 0430). React
 * ships it as a CommonJS module, so each JSX element of ours was compiled to a call through the
 * module object, `(0,h.jsx)(…)`; through these bindings it is a plain call, `Q(…)`.
 */
export const jsx = runtime.jsx;
export const jsxs = runtime.jsxs;
export const Fragment = runtime.Fragment;
