import { createFileRoute } from '@tanstack/react-router';
import { loadAreaCatalog } from '../../../lib/i18n.ts';

/**
 * The layout of the profile area's screens (the signed-in user's own profile and password). Their texts are in the `profile` catalog, which
 * its loader fetches beside the screens' data, before any of them renders
 * (docs/decisions/028-catalogs-by-area.md).
 */
export const Route = createFileRoute('/_secure/profile')({
  loader: () => loadAreaCatalog('profile'),
});
