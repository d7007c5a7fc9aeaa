import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../features/shell/components/not-found-page.tsx';
import { RootLayout } from '../features/shell/components/root-layout.tsx';
import type { OfflineSupport } from '../lib/offline/support.ts';
import type { SessionController } from '../lib/session.ts';

export interface RouterContext {
  /** The secure layout awaits it and hands `queryClient` to every secure route in its context. */
  loadQueryClient: () => Promise<QueryClient>;
  /** The page's session, made once by `main.tsx`: guards ask it, the secure layout starts from it. */
  session: SessionController;
  /** The page's offline support, made once by `main.tsx`: the secure layout starts its secure session. */
  offline: OfflineSupport;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
