import { createFileRoute } from '@tanstack/react-router';
import { loadAreaCatalog } from '../../../lib/i18n.ts';

/**
 * The layout of the access area's screens (users, administrators, service users, roles and API tokens). Their texts are in the `access` catalog, which
 * its loader fetches beside the screens' data, before any of them renders
 * (docs/decisions/028-catalogs-by-area.md).
 */
export const Route = createFileRoute('/_secure/access')({
  loader: () => loadAreaCatalog('access'),
});
