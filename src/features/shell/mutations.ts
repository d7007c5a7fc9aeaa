import { useMutation } from '@tanstack/react-query';
import type { PlatformLocale } from '../../../contract/locales.ts';
import { apiPaths } from '../../../contract/paths.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { storeLanguageAndReload } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';

export const shellMutationKeys = {
  changeLanguage: ['shell', 'change-language'] as const,
  signOut: ['shell', 'sign-out'] as const,
};

/** Saves the language on the user (D-09), then stores it and reloads like on the public pages. */
export function useChangeLanguage(userId: string) {
  return useMutation({
    mutationKey: shellMutationKeys.changeLanguage,
    mutationFn: (code: PlatformLocale) => apiRequest('PUT', apiPaths.userLocale(userId, code)),
    onSuccess: (_result, code) => storeLanguageAndReload(code),
  });
}

/**
 * Sign-out: the service worker learns whether to keep the user's queued changes, the storage key of
 * the session is destroyed and then the data it sealed, and the server session is revoked; the caller
 * leaves the secure screens, then ends the session.
 */
export function useSignOut() {
  const session = useSession();
  return useMutation({
    mutationKey: shellMutationKeys.signOut,
    mutationFn: async ({ keepOutbox }: { keepOutbox: boolean }) => {
      await session.closeOffline(keepOutbox);
      await session.revoke();
    },
  });
}
