import { createFileRoute } from '@tanstack/react-router';
import { loadAreaCatalog } from '../../../lib/i18n.ts';

/**
 * The layout of the reporting area's screens (the audit log). Their texts are in the `reporting` catalog, which
 * its loader fetches beside the screens' data, before any of them renders
 * (docs/decisions/028-catalogs-by-area.md).
 */
export const Route = createFileRoute('/_secure/reporting')({
  loader: () => loadAreaCatalog('reporting'),
});
