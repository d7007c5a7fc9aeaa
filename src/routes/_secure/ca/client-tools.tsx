import { createFileRoute } from '@tanstack/react-router';
import { ClientToolsPage } from '../../../features/client-tools/components/client-tools-page.tsx';
import { clientToolsQueryOptions } from '../../../features/client-tools/queries.ts';

/** Every signed-in user may open it: the catalogue is public, for the enrollment page's install prompt. */
export const Route = createFileRoute('/_secure/ca/client-tools')({
  loader: async ({ context: { screenData } }) => {
    await screenData.preload(clientToolsQueryOptions());
  },
  component: ClientToolsPage,
});
