import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../features/shell/components/not-found-page.tsx';
import { RootLayout } from '../features/shell/components/root-layout.tsx';

export interface RouterContext {
  /** The secure layout awaits it and hands `queryClient` to every secure route in its context. */
  loadQueryClient: () => Promise<QueryClient>;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
