import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../features/shell/components/not-found-page.tsx';
import { RootLayout } from '../features/shell/components/root-layout.tsx';
import type { SessionController } from '../lib/session.ts';
import type { LoadStaleAfter } from '../lib/stale-after-change.ts';

export interface RouterContext {
  /** The secure layout awaits it and hands `queryClient` to every secure route in its context. */
  loadQueryClient: () => Promise<QueryClient>;
  /** The page's session, made once by `main.tsx`: guards ask it, the secure layout starts from it. */
  session: SessionController;
  /** What a change makes stale, per domain: the query client's and the offline support's one table. */
  loadStaleAfter: LoadStaleAfter;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
