import { createRouter, type RouterHistory } from '@tanstack/react-router';

// main.tsx loads this module, and the router with it, as one piece (docs/decisions/030).
export { RouterProvider } from '@tanstack/react-router';

import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import type { RouterContext } from './routes/__root.tsx';
import { routeTree } from './routeTree.gen.ts';

/**
 * `context.loadQueryClient` makes the query client on first use: only the secure layout asks for it,
 * so the pages before sign-in never load the query library (docs/decisions/015-sign-in-page-weight.md).
 * `history` is the browser's unless given (tests pass a memory history).
 */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    basepath: CONSOLE_BASE_PATH,
    context,
    defaultPreload: 'intent',
    // Loaders read through the query cache, which has its own freshness rules.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
