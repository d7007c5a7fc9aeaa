import { createFileRoute } from '@tanstack/react-router';
import { loadAreaCatalog } from '../../../lib/i18n.ts';

/**
 * The layout of the ca area's screens (the certificate authority, certificates, enrollments, certificate profiles, organizations and client tools). Their texts are in the `ca` catalog, which
 * its loader fetches beside the screens' data, before any of them renders
 * (docs/decisions/028-catalogs-by-area.md).
 */
export const Route = createFileRoute('/_secure/ca')({
  loader: () => loadAreaCatalog('ca'),
});
