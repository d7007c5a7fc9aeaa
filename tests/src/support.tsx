import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import { type PermissionFlag, permissionFlagsFrom } from '../../contract/permissions.ts';
import { SESSION_HINT_COOKIE } from '../../contract/schemas/identity.ts';
import type { Profile } from '../../contract/schemas/profile.ts';
import { setupStatus } from '../../src/features/setup/queries.ts';
import { clearAccessToken } from '../../src/lib/access-token.ts';
import { OfflineSupport, OfflineSupportProvider } from '../../src/lib/offline/support.ts';
import { PermissionFlagsProvider } from '../../src/lib/permissions.tsx';
import { SessionController, SessionProvider } from '../../src/lib/session.ts';
import { staleAfterMutation } from '../../src/lib/stale-after-change.ts';
import { createAppRouter } from '../../src/router.ts';

// The first render of a file loads the route chunks through the Vite transform, and the secure
// layout the query library after them: that can take more than Testing Library's default second on a
// busy two-core machine, and more than ten seconds on a slower one running the other suites and the
// browser stories beside it (seen in CI: a file's first page drawn after 10.4 s). Within the console
// project's 30 s test timeout; a passing wait returns as soon as the page shows.
configure({ asyncUtilTimeout: 20_000 });

// Tests run without vitest globals, so Testing Library cannot clean up by itself.
/** The pages the rendered apps made, their sessions ended after each test as a page's end would. */
const pages: { session: SessionController; offline: OfflineSupport }[] = [];

afterEach(async () => {
  cleanup();
  // Each test starts signed out, even one after a test whose sign-out was still finishing when its
  // last check passed.
  for (const { session } of pages.splice(0)) await session.end();
  clearAccessToken();
  // The setup status serves a page start for a few seconds; each test is a page start of its own.
  setupStatus.invalidate();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

/** English with no catalog: the macros keep the source text in tests, so that is what renders. */
export function activateEnglish(): void {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
}

/** The console's table of what a change makes stale, as `main.tsx` hands it to the query client. */
export const loadStaleAfter = () =>
  import('../../src/routes/-stale-after-change.ts').then(({ STALE_AFTER_CHANGE }) => STALE_AFTER_CHANGE);

export function testQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({ onSettled: staleAfterMutation(loadStaleAfter) }),
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

type Handler = (request: { body: unknown; url: URL }) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function apiError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ error: { status, message } }, status, headers);
}

/** The base a queueable change was sent with (`X-Outbox-Base`), decoded; undefined when it has none. */
export function outboxBase(headers: Headers | undefined): unknown {
  const header = headers?.get('X-Outbox-Base');
  return header == null ? undefined : JSON.parse(decodeURIComponent(header));
}

/**
 * What every secure screen asks for before it renders: the session (from the refresh cookie), the
 * user, their permissions and applications, and the languages. Signing out ends the session as the
 * server does: its refresh cookie renews nothing after that.
 */
export function signedInHandlers(profile: Profile, permissions: readonly string[]): Record<string, Handler> {
  let signedOut = false;
  return {
    'POST /imauth/api/v1/refresh': () =>
      signedOut
        ? apiError(401, 'No session.')
        : json({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z' }),
    'POST /imauth/api/v1/logout': () => {
      signedOut = true;
      return new Response(null, { status: 204 });
    },
    'GET /account/ui-api/v1/profile': () => json(profile),
    'GET /account/ui-api/v1/permission': () =>
      json({ items: permissions.map((name) => ({ name })), total: permissions.length }),
    'GET /account/ui-api/v1/user/applications': () => json({ items: [], total: 0 }),
    'GET /account/api/v1/locales': () => json({ items: [], total: 0 }),
  };
}

/**
 * Whether the browser holds a refresh cookie, as the page sees it: through the readable hint the
 * server sets beside the HttpOnly cookie (the HttpOnly one itself is for the fake server to imagine).
 */
export function holdRefreshCookie(held: boolean): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the test stands in for the server's Set-Cookie.
  document.cookie = held ? `${SESSION_HINT_COOKIE}=1; path=/` : `${SESSION_HINT_COOKIE}=; max-age=0; path=/`;
}

/**
 * Replaces fetch at the network boundary with answers keyed by "METHOD /path". Unknown calls answer
 * 404 like the server does, and every call is recorded for assertions.
 */
export function mockApi(handlers: Record<string, Handler>) {
  // The browser holds a refresh cookie where the fake server answers refresh at all (whether it
  // accepts the cookie is the handler's to say).
  holdRefreshCookie(handlers['POST /imauth/api/v1/refresh'] !== undefined);
  const calls: { method: string; path: string; body: unknown; headers: Headers }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body, headers: new Headers(init?.headers) });
    const handler = handlers[`${method} ${url.pathname}`];
    return handler ? handler({ body, url }) : apiError(404, 'Not found.');
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

/** The page's session and offline support, wired to each other as main.tsx wires them. */
export function consolePage(queryClient: QueryClient) {
  const session = new SessionController({
    ended: () => queryClient.clear(),
    lost: () => undefined,
    carriesOnOffline: () => offline.carriesOn(),
    closeOffline: (keepOutbox) => offline.close(keepOutbox),
  });
  const offline = new OfflineSupport({
    session,
    loadQueryClient: () => Promise.resolve(queryClient),
    loadStaleAfter,
    notify: () => undefined,
  });
  const page = { session, offline };
  pages.push(page);
  return page;
}

/** The secure sessions' module, as the secure layout imports it for the offline support. */
export const importSecureSessions = () => import('../../src/lib/offline/secure-session.ts');

/**
 * The tabs of the rendered apps close: what runs for their secure sessions stops, what is stored
 * stays (and their sessions' ends after the test find nothing to destroy).
 */
export async function closeTabs(): Promise<void> {
  for (const { offline } of pages) (await offline.load(importSecureSessions)).stop();
}

/**
 * The rendered apps' pages hold a live storage key of the user (given after their secure layout
 * started), so their workers may keep the user's changes; `null` takes it back.
 */
export async function keepChangesOf(userId: string | null): Promise<void> {
  for (const { offline } of pages) (await offline.load(importSecureSessions)).outbox.keepChangesOf(userId);
}

/** Writes the rendered apps' offline caches now instead of after the throttle. */
export async function flushOfflineCaches(): Promise<void> {
  for (const { offline } of pages) await (await offline.load(importSecureSessions)).flush();
}

/** The real console router and screens at a public path such as `/account/login?state=…`. */
export function renderApp(path: string) {
  activateEnglish();
  // jsdom has no scrolling; the router restores scroll positions on navigation.
  vi.stubGlobal('scrollTo', () => undefined);
  // Ark UI positions menus with floating-ui, which watches sizes; jsdom has no layout to watch.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  const queryClient = testQueryClient();
  const { session, offline } = consolePage(queryClient);
  const router = createAppRouter(
    { loadQueryClient: () => Promise.resolve(queryClient), session, offline },
    createMemoryHistory({ initialEntries: [path] }),
  );
  const view = render(
    <I18nProvider i18n={i18n}>
      <SessionProvider value={session}>
        <OfflineSupportProvider value={offline}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </OfflineSupportProvider>
      </SessionProvider>
    </I18nProvider>,
  );
  return { ...view, router, queryClient, session, offline };
}

/** One component inside a bare router (for its links) with the given permission flags. */
export function renderWithPermissions(ui: ReactNode, held: readonly PermissionFlag[]) {
  activateEnglish();
  const flags = permissionFlagsFrom([]);
  for (const flag of held) flags[flag] = true;
  const rootRoute = createRootRoute({
    component: () => <PermissionFlagsProvider flags={flags}>{ui}</PermissionFlagsProvider>,
    notFoundComponent: () => null,
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={testQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}
