import { QueryClientProvider } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { consoleLocaleFor } from '../../contract/locales.ts';
import { encodeSignInState } from '../../contract/schemas/identity.ts';
import { prefetchSignInPage } from '../features/session/queries.ts';
import { setupStatus } from '../features/setup/queries.ts';
import { AppShell } from '../features/shell/components/app-shell.tsx';
import { getAccessToken } from '../lib/access-token.ts';
import { setActiveAccountId } from '../lib/active-account.ts';
import { ApiError } from '../lib/api-client.ts';
import {
  activeAccountIdOf,
  applicationsQueryOptions,
  permissionsQueryOptions,
  profileQueryOptions,
} from '../lib/current-user.ts';
import { activateLocale, loadAreaCatalog } from '../lib/i18n.ts';
import { forgetRecentAccount } from '../lib/recent-accounts.ts';
import { loadTemporal } from '../lib/temporal.ts';
import { Route as SignInRoute } from './login.tsx';

export const Route = createFileRoute('/_secure')({
  // The session, or without a network the last user's cached screens (docs/decisions/013). The offline
  // support is imported here, not with the route tree, so the pages before sign-in never load it.
  beforeLoad: async ({ location, context: { loadQueryClient, session } }) => {
    const toSignIn = () =>
      redirect({ to: '/login', search: { state: encodeSignInState({ return_path: location.publicHref }) } });
    // A page start without a token asks the refresh cookie before the layout's code loads, and with it
    // what the sign-in page needs (its code, the setup status, its footer and languages): refused, the
    // visitor goes to sign-in at once, where those answers are waiting, and the layout's code is not
    // fetched for nothing (docs/decisions/026-start-up-round-trips.md).
    if (session.state === 'signed-out' && getAccessToken() === null) {
      const checking = session.check();
      void SignInRoute.options.component?.preload?.();
      void setupStatus.read().catch(() => undefined);
      prefetchSignInPage();
      if ((await checking) === 'refused') throw toSignIn();
    }
    // One round trip for the layout's code, not one per module, and the date polyfill with it: dates
    // are drawn from the first secure screen on (a browser with its own Temporal fetches nothing).
    const [queryClient, { screenDataOf }, secureSession, { SYNC_TARGETS }] = await Promise.all([
      loadQueryClient(),
      import('../lib/query-client.ts'),
      import('../lib/offline/secure-session.ts'),
      import('./-sync-targets.ts'),
      loadTemporal(),
    ]);
    const { startSecureSession, showOfflinePage, showOfflineNoticesWith } = secureSession;
    showOfflineNoticesWith(({ type, text }) => {
      void import('../components/ui/toast.tsx').then(({ showToast }) => showToast(type, text));
    });
    const starting = startSecureSession({ controller: session, queryClient, syncTargets: SYNC_TARGETS });
    // With a token in memory the start is online whatever else it does (the storage key, the restore):
    // the routes' loaders need not wait for it, so the first screen's data goes out beside the shell's
    // (docs/decisions/026-start-up-round-trips.md). The layout's loader awaits it before any secure
    // screen renders.
    if (getAccessToken() === null) {
      const start = await starting;
      if (start === 'unavailable') await showOfflinePage();
      if (start === 'signed-out') throw toSignIn();
    }
    return { queryClient, screenData: screenDataOf(queryClient), secureStart: starting };
  },
  loader: async ({ context: { screenData, secureStart } }) => {
    await secureStart;
    const profile = await screenData.load(profileQueryOptions());
    const accountId = activeAccountIdOf(profile);
    // The signed-in user's own language, whoever chose one last on this browser (D-09): the stored
    // choice serves only the pages before sign-in.
    await activateLocale(consoleLocaleFor(profile.locale));
    const loadAccount = (id: string) =>
      Promise.all([
        screenData.load(permissionsQueryOptions(profile.access_scope, id)),
        screenData.load(applicationsQueryOptions(id)),
      ]);
    const loadActiveAccount = async () => {
      try {
        await loadAccount(accountId);
      } catch (error) {
        // An account chosen in the switcher can go out of reach (removed, or moved to another
        // partner); the server answers 404 and the user works in the primary account again.
        const outOfReach = error instanceof ApiError && error.status === 404;
        if (!outOfReach || accountId === profile.primary_account_id) throw error;
        forgetRecentAccount(profile.id, accountId);
        setActiveAccountId(null);
        await loadAccount(profile.primary_account_id);
      }
    };
    await Promise.all([loadAreaCatalog('console'), loadActiveAccount()]);
  },
  component: function SecureLayout() {
    const { queryClient } = Route.useRouteContext();
    return (
      <QueryClientProvider client={queryClient}>
        <AppShell />
      </QueryClientProvider>
    );
  },
});
