import { createFileRoute } from '@tanstack/react-router';
import { PublicClientToolsPage } from '../features/client-tools/components/client-tools-page.tsx';

/** Public: the trust agent's download for a technician who has no account session yet. */
export const Route = createFileRoute('/client-tools')({
  component: PublicClientToolsPage,
});
