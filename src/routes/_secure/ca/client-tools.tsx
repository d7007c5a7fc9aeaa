import { createFileRoute } from '@tanstack/react-router';
import { ClientToolsPage } from '../../../features/client-tools/components/client-tools-page.tsx';
import { clientToolsQueryOptions } from '../../../features/client-tools/queries.ts';
import { loadAreaCatalog } from '../../../lib/i18n.ts';

/** Every signed-in user may open it: the catalogue is public, for the enrollment page's install prompt. */
export const Route = createFileRoute('/_secure/ca/client-tools')({
  loader: async ({ context: { screenData } }) => {
    // The agent's panel says what the pages before sign-in say about it: its own catalog.
    await Promise.all([screenData.preload(clientToolsQueryOptions()), loadAreaCatalog('trust-agent')]);
  },
  component: ClientToolsPage,
});
