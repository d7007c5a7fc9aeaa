import { QueryClientProvider } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PublicClientToolsPage } from '../features/client-tools/components/client-tools-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

/**
 * Public: the trust agent's download for a technician who has no account session yet. It shows the
 * console's catalogue screen, so it loads what the secure layout and the CA area load for it: the
 * query client and their catalogs.
 */
export const Route = createFileRoute('/client-tools')({
  loader: async ({ context }) => {
    const [queryClient] = await Promise.all([
      context.loadQueryClient(),
      loadAreaCatalog('console'),
      loadAreaCatalog('ca'),
      loadAreaCatalog('trust-agent'),
    ]);
    return { queryClient };
  },
  component: function PublicClientToolsRoute() {
    const { queryClient } = Route.useLoaderData();
    return (
      <QueryClientProvider client={queryClient}>
        <PublicClientToolsPage />
      </QueryClientProvider>
    );
  },
});
