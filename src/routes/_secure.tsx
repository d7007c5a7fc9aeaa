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
import { OutboxProvider } from '../lib/offline/outbox-client.ts';
import { forgetRecentAccount } from '../lib/recent-accounts.ts';
import { holdsRefreshCookie } from '../lib/session.ts';
import { loadTemporal } from '../lib/temporal.ts';
import { Route as SignInRoute } from './login.tsx';

/**
 * A load started before it is known to be needed: where the session is refused it is left unused and
 * its failure is nobody's to report; whoever awaits it still gets the failure.
 */
function unreported<T>(loading: Promise<T>): Promise<T> {
  loading.catch(() => undefined);
  return loading;
}

export const Route = createFileRoute('/_secure')({
  // The session, or without a network the last user's cached screens (docs/decisions/013). The offline
  // support is imported here, not with the route tree, so the pages before sign-in never load it.
  beforeLoad: async ({ location, context: { loadQueryClient, offline, session } }) => {
    const toSignIn = () =>
      redirect({ to: '/login', search: { state: encodeSignInState({ return_path: location.publicHref }) } });
    // One round trip for the layout's code, not one per module, and the date polyfill with it: the
    // routes' loaders may compute dates (a browser with its own Temporal fetches nothing).
    const loadLayoutCode = () =>
      unreported(
        Promise.all([
          loadQueryClient(),
          import('../lib/query-client.ts'),
          offline.load(() => import('../lib/offline/secure-session.ts')),
          loadTemporal(),
        ]),
      );
    // The console catalog of the language in use travels beside it, but only the screens need it, not
    // the start: the loader awaits it before any secure screen renders, so the start's requests do not
    // wait for its download after a sign-in (docs/decisions/026). The profile's, if another, follows in
    // the loader.
    const loadConsoleTexts = () => unreported(loadAreaCatalog('console'));
    let layoutCode: ReturnType<typeof loadLayoutCode> | null = null;
    let consoleTexts: Promise<void> | null = null;
    // A page start without a token asks the refresh cookie first (docs/decisions/026-start-up-round-trips.md).
    // With one, a session is likely and the layout's code downloads beside the question; without
    // one the answer is known at once, and what the sign-in page needs (its code, the setup status,
    // its footer and languages) is asked instead, so the visitor finds it waiting there.
    if (session.state === 'signed-out' && getAccessToken() === null) {
      const checking = session.check();
      if (holdsRefreshCookie()) {
        layoutCode = loadLayoutCode();
        consoleTexts = loadConsoleTexts();
      } else {
        void SignInRoute.options.component?.preload?.();
        void setupStatus.read().catch(() => undefined);
        prefetchSignInPage();
      }
      if ((await checking) === 'refused') throw toSignIn();
    }
    const texts = consoleTexts ?? loadConsoleTexts();
    const [queryClient, { screenDataOf }, secureSessions] = await (layoutCode ?? loadLayoutCode());
    const starting = secureSessions.start();
    // With a token in memory the start is online whatever else it does (the storage key, the restore):
    // the routes' loaders need not wait for it, so the first screen's data goes out beside the shell's
    // (docs/decisions/026-start-up-round-trips.md). The layout's loader awaits it before any secure
    // screen renders.
    if (getAccessToken() === null) {
      const start = await starting;
      if (start === 'unavailable') await secureSessions.showOfflinePage();
      if (start === 'signed-out') throw toSignIn();
    }
    return {
      queryClient,
      outbox: secureSessions.outbox,
      screenData: screenDataOf(queryClient),
      secureStart: starting,
      consoleTexts: texts,
    };
  },
  loader: async ({ context: { screenData, secureStart, consoleTexts } }) => {
    await Promise.all([secureStart, consoleTexts]);
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
    // The profile's language may differ from the one whose catalog came with the layout's code.
    await Promise.all([loadAreaCatalog('console'), loadActiveAccount()]);
  },
  component: function SecureLayout() {
    const { queryClient, outbox } = Route.useRouteContext();
    return (
      <QueryClientProvider client={queryClient}>
        <OutboxProvider value={outbox}>
          <AppShell />
        </OutboxProvider>
      </QueryClientProvider>
    );
  },
});
