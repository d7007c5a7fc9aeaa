import { createFileRoute, redirect } from '@tanstack/react-router';
import { consoleLocaleFor } from '../../../../contract/locales.ts';
import { profileQueryOptions } from '../../../lib/current-user.ts';
import { activateLocale } from '../../../lib/i18n.ts';

/**
 * The profile redirect (E-27 … E-29): the signed-in administrator's profile decides the language,
 * then their own details page opens in place of this address, so Back does not return here.
 */
export const Route = createFileRoute('/_secure/profile/details')({
  // A loader, not beforeLoad: the loader is split from the route tree, so the query options it
  // imports are not loaded with the pages before sign-in (decision 015).
  loader: async ({ context: { screenData } }) => {
    const profile = await screenData.load(profileQueryOptions());
    // The whole locale, not its first part: zh_CN, zh_TW and pt_BR have catalogs, zh and pt do not.
    // Activating loads every catalog asked for so far in that language, the secure layout's included.
    await activateLocale(consoleLocaleFor(profile.locale));
    throw redirect({ to: '/access/administrators/$id', params: { id: profile.id }, replace: true });
  },
});
