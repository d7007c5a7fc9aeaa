import './styles/tokens.css';
import './styles/app.css';
import { I18nProvider } from '@lingui/react';
import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { LOGIN_PATH } from '../contract/paths.ts';
import { encodeSignInState } from '../contract/schemas/identity.ts';
import { removeStartStandIns } from './features/session/sign-in-preview.ts';
import { onUnauthorized } from './lib/api-client.ts';
import { activateLocale, i18n, loadAreaCatalog, resolveConsoleLocale, storedLanguage } from './lib/i18n.ts';
import { OfflineSupport, OfflineSupportProvider } from './lib/offline/support.ts';
import type { PageNavigation } from './lib/page-navigation.tsx';
import { routerHref } from './lib/return-path.ts';
import { SessionController, SessionProvider } from './lib/session.ts';
import { applyTheme, storedTheme } from './lib/theme.ts';
import type { AppRouter } from './router.ts';
import { signInPageDetour } from './routes/-sign-in.tsx';
import { enterSignInPage, SignInStart, startsOnSignIn } from './sign-in-start.tsx';

/** What a change makes stale, per domain: the features' query keys, loaded with the first change. */
const loadStaleAfter = () =>
  import('./routes/-stale-after-change.ts').then(({ STALE_AFTER_CHANGE }) => STALE_AFTER_CHANGE);

async function boot(): Promise<void> {
  applyTheme(storedTheme());
  let queryClient: QueryClient | null = null;
  const loadQueryClient = async () => {
    if (!queryClient) {
      const [{ createQueryClient }, { notifyError }] = await Promise.all([
        import('./lib/query-client.ts'),
        import('./components/notify.ts'),
      ]);
      queryClient ??= createQueryClient(notifyError, loadStaleAfter);
    }
    return queryClient;
  };
  // The page's one session and its offline support, made here and handed to every route in the
  // router context and to every component by their providers.
  const session = new SessionController({
    ended: () => queryClient?.clear(),
    lost: () => void leaveForSignIn(),
    carriesOnOffline: () => offline.carriesOn(),
    closeOffline: (keepOutbox) => offline.close(keepOutbox),
  });
  const offline = new OfflineSupport({
    session,
    loadQueryClient,
    loadStaleAfter,
    // Told in the console's texts, so a notice waits for them as the screens do (texts that fail to
    // load leave the screen on its error page, with no notice to tell).
    notify: ({ type, message }) =>
      void Promise.all([import('./components/notify.ts'), loadAreaCatalog('console')]).then(
        ([{ notify }]) => notify(type, i18n._(message)),
        () => undefined,
      ),
  });

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  // A first screen is the heaviest render of its visit (the router's: the shell and a list at once).
  // As a transition React renders it in slices that let the browser paint and take input between
  // them; drawn otherwise, it is one task of up to a second on a slow phone. The router's screen
  // gains only because its location is loaded before it is drawn: a load after would reach the
  // screen through the router's store, which React always renders in one piece.
  const draw = (page: ReactNode) =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <I18nProvider i18n={i18n}>
            <SessionProvider value={session}>
              <OfflineSupportProvider value={offline}>{page}</OfflineSupportProvider>
            </SessionProvider>
          </I18nProvider>
        </StrictMode>,
      ),
    );

  // The router, its code with the route tree, loads on first use: at once for most visits, on the
  // first move away from sign-in for a visit that starts there (docs/decisions/030).
  let routing: Promise<{ router: AppRouter; draw: () => void }> | null = null;
  const loadRouter = () => {
    routing ??= import('./router.ts').then(({ createAppRouter, RouterProvider }) => {
      const router = createAppRouter({ loadQueryClient, session, offline });
      // index.html's stand-ins stood in until the router's first screen.
      const unsubscribe = router.subscribe('onRendered', () => {
        removeStartStandIns();
        unsubscribe();
      });
      let drawn = false;
      const drawRouter = () => {
        if (drawn) return;
        drawn = true;
        draw(<RouterProvider router={router} />);
      };
      return { router, draw: drawRouter };
    });
    // A download that failed (the connection dropped) is tried again by the next move.
    routing.catch(() => {
      routing = null;
    });
    return routing;
  };
  /** Shows a page through the router; a page drawn before it stays until the router's is ready. */
  const show = async (href: string, replace = false) => {
    const { router, draw: drawRouter } = await loadRouter();
    await router.navigate({ href, replace });
    drawRouter();
  };

  /**
   * The session is gone (401 or a failed refresh): stop sending the token now, go to sign-in with the
   * way back (S-15), and drop the cached data once the secure screens have left.
   */
  const leaveForSignIn = async () => {
    session.forgetToken();
    const { pathname, search, hash } = window.location;
    const state = encodeSignInState({ return_path: `${pathname}${search}${hash}` });
    await show(`${routerHref(LOGIN_PATH)}?${new URLSearchParams({ state })}`);
    await session.end();
  };
  onUnauthorized({
    renew: async () => (await session.refresh()) === 'renewed',
    lost: () => void leaveForSignIn(),
  });

  // The profile's locale is applied by the secure layout once it is known; until then, the stored one.
  await activateLocale(resolveConsoleLocale(storedLanguage(), null));

  if (startsOnSignIn()) {
    const encodedState = enterSignInPage();
    const navigation: PageNavigation = {
      go: (href, options) => show(href, options?.replace),
      // A preload that fails leaves the move to load what it needs.
      preload: (href) =>
        void loadRouter()
          .then(({ router }) => router.preloadRoute({ to: '/', href }))
          .catch(() => undefined),
    };
    // Where the visitor goes instead (signed in after all, a platform still to set up), or on an error
    // for the router's page to report, the router takes the visit.
    const here = () => `${routerHref(window.location.pathname)}${window.location.search}`;
    const detour = await signInPageDetour(session, encodedState).catch(here);
    if (detour) await show(detour, true);
    else {
      draw(<SignInStart encodedState={encodedState} navigation={navigation} />);
      // The first form sent (the username's Next) says the visitor is on the way out: the router's
      // code downloads while the password is typed, not after the sign-in answer. A failure is the
      // move's to report, which tries again.
      const warmUp = () => void loadRouter().catch(() => undefined);
      document.addEventListener('submit', warmUp, { capture: true, once: true });
    }
  } else {
    const { router, draw: drawRouter } = await loadRouter();
    // Loaded before it is drawn, as `show` does (see `draw`). The router keeps a failed load as
    // its page's error, which the drawn router shows.
    await router.load().catch(() => undefined);
    drawRouter();
  }
  offline.registerWorker();
}

void boot();
