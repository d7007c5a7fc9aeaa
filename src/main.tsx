import './styles/tokens.css';
import './styles/app.css';
import { I18nProvider } from '@lingui/react';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { encodeSignInState } from '../contract/schemas/identity.ts';
import { takeOverSignInPreview } from './features/session/sign-in-preview.ts';
import { onUnauthorized } from './lib/api-client.ts';
import { activateLocale, i18n, resolveConsoleLocale, storedLanguage } from './lib/i18n.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import { SessionController } from './lib/session.ts';
import { applyTheme, storedTheme } from './lib/theme.ts';
import { createAppRouter } from './router.ts';

async function boot(): Promise<void> {
  applyTheme(storedTheme());
  let queryClient: QueryClient | null = null;
  const loadQueryClient = async () => {
    if (!queryClient) {
      const [{ createQueryClient }, { notifyError }] = await Promise.all([
        import('./lib/query-client.ts'),
        import('./components/notify.ts'),
      ]);
      queryClient ??= createQueryClient(notifyError);
    }
    return queryClient;
  };
  /**
   * The session is gone (401 or a failed refresh): stop sending the token now, go to sign-in with the
   * way back (S-15), and drop the cached data once the secure screens have left.
   */
  const leaveForSignIn = async () => {
    session.forgetToken();
    const { pathname, search, hash } = window.location;
    await router.navigate({
      to: '/login',
      search: { state: encodeSignInState({ return_path: `${pathname}${search}${hash}` }) },
    });
    await session.end();
  };
  // The page's one session, made here and handed to every route in the router context.
  const session = new SessionController({
    ended: () => queryClient?.clear(),
    lost: () => void leaveForSignIn(),
  });
  const router = createAppRouter({ loadQueryClient, session });
  onUnauthorized({
    renew: async () => (await session.refresh()) === 'renewed',
    lost: () => void leaveForSignIn(),
  });

  // The profile's locale is applied by the secure layout once it is known; until then, the stored one.
  await activateLocale(resolveConsoleLocale(storedLanguage(), null));

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  );
  // index.html's mark, or its sign-in preview where the first screen is not the sign-in page, stood
  // in until now.
  const unsubscribe = router.subscribe('onRendered', () => {
    document.querySelector('.boot')?.remove();
    takeOverSignInPreview();
    unsubscribe();
  });
  registerServiceWorker();
}

void boot();
