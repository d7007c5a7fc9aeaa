import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { routeTree } from './routeTree.gen.ts';

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: CONSOLE_BASE_PATH,
    context: { queryClient },
    defaultPreload: 'intent',
    // Loaders read through the query cache, which has its own freshness rules.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
