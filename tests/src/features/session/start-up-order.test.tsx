// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../../contract/paths.ts';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { STORAGE_KEYS } from '../../../../src/lib/storage-keys.ts';
import { apiError, json, mockApi, renderApp } from '../../support.tsx';
import { findAccountsTable, signedIn, tenantFixture } from '../accounts/accounts-list-support.ts';

/**
 * How many round trips a start-up waits for (docs/decisions/026-start-up-round-trips.md). The mocked
 * API answers in rounds: it holds every request until none has come for a while, then answers all
 * of them at once. A request that needs another's answer therefore falls into a later round, and
 * requests that go out together share one, however long the code between them takes to load.
 */
const QUIET_MS = 400;

/**
 * The console catalog's download, held where a test says so: a step that waited for it would come a
 * round later on a network, where it is a file like any other; here it is a local import.
 */
const consoleTexts = vi.hoisted(() => ({ held: Promise.resolve() }));
vi.mock('../../../../src/lib/i18n.ts', async (importOriginal) => {
  const i18n = await importOriginal<typeof import('../../../../src/lib/i18n.ts')>();
  return {
    ...i18n,
    loadAreaCatalog: async (catalog: Parameters<typeof i18n.loadAreaCatalog>[0]) => {
      if (catalog === 'console') await consoleTexts.held;
      return i18n.loadAreaCatalog(catalog);
    },
  };
});

function answerInRounds() {
  const answer = globalThis.fetch;
  let round = 0;
  const held: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered: { path: string; round: number }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    await new Promise<void>((release) => {
      held.push(release);
      clearTimeout(timer);
      timer = setTimeout(() => {
        round += 1;
        for (const releaseOne of held.splice(0)) releaseOne();
      }, QUIET_MS);
    });
    answered.push({ path, round });
    return answer(input, init);
  });
  return {
    /** Rounds answered so far. */
    rounds: () => round,
    /** The requests answered in rounds after `after`, up to `upTo`. */
    between: (after: number, upTo: number) =>
      answered.filter((request) => request.round > after && request.round <= upTo),
  };
}

const publicAnswers = {
  [`GET ${apiPaths.identity.loginCustomization}`]: () =>
    json({
      logo: null,
      urls: {
        termsOfUse: null,
        privacyPolicy: null,
        legalRepository: null,
        webtrustAudit: null,
        support: null,
        contactUs: null,
      },
      copyright: '© 2026 Example Trust',
    }),
  [`GET ${apiPaths.locales}`]: () => json({ items: [{ id: 'en_US', name: 'English (US)' }], total: 1 }),
  [`POST ${apiPaths.identity.refresh}`]: () => apiError(401, 'No session.'),
  [`GET ${apiPaths.setup.status}`]: () => json({ licence_installed: true, administrator_exists: true }),
};

const paths = (requests: readonly { path: string }[]) => requests.map((request) => request.path).sort();

describe('the start-up of the console', () => {
  it('opens a secure address without a session on the sign-in form after one round trip', async () => {
    // No refresh cookie in this browser: the fake server is given no refresh to answer.
    const { [`POST ${apiPaths.identity.refresh}`]: _refresh, ...withoutCookie } = publicAnswers;
    mockApi(withoutCookie);
    const api = answerInRounds();
    renderApp('/account/accounts');
    await screen.findByLabelText('Username', {}, { timeout: 10_000 });
    const requests = api.between(0, api.rounds());

    // No cookie, no session to ask about: the setup status and the sign-in page's footer and
    // languages went out together, and nothing else.
    expect(paths(requests)).toEqual(
      [
        `GET ${apiPaths.identity.loginCustomization}`,
        `GET ${apiPaths.locales}`,
        `GET ${apiPaths.setup.status}`,
      ].sort(),
    );
    expect(api.rounds()).toBe(1);
  });

  it('opens a secure address without a session on the sign-in form before any answer where the platform was seen set up', async () => {
    window.localStorage.setItem(STORAGE_KEYS.platformConfigured, '1');
    const { [`POST ${apiPaths.identity.refresh}`]: _refresh, ...withoutCookie } = publicAnswers;
    mockApi(withoutCookie);
    const api = answerInRounds();
    renderApp('/account/accounts');
    await screen.findByLabelText('Username', {}, { timeout: 10_000 });
    // The repeat visit of a signed-out user: the setup status is still asked, but not waited for.
    expect(api.rounds()).toBe(0);
    await waitFor(() => expect(api.rounds()).toBe(1));
    expect(paths(api.between(0, 1))).toContain(`GET ${apiPaths.setup.status}`);
  });

  it('opens a secure address with a refused cookie on the sign-in form after two round trips', async () => {
    mockApi(publicAnswers);
    const api = answerInRounds();
    renderApp('/account/accounts');
    await screen.findByLabelText('Username', {}, { timeout: 10_000 });

    // A cookie makes a session likely, so the first round asks it beside the layout's code; the
    // refusal costs the sign-in page's questions a second round (docs/decisions/026).
    expect(paths(api.between(0, 1))).toEqual([`POST ${apiPaths.identity.refresh}`]);
    expect(api.rounds()).toBe(2);
  });

  it('opens the sign-in address on the form after one round trip', async () => {
    mockApi(publicAnswers);
    const api = answerInRounds();
    renderApp(`/account/login?state=${encodeSignInState({ return_path: '/account/accounts' })}`);
    await screen.findByLabelText('Username', {}, { timeout: 10_000 });
    // The footer and the languages are already known from the test before (they are kept for minutes).
    expect(paths(api.between(0, 1))).toEqual(
      expect.arrayContaining([`GET ${apiPaths.setup.status}`, `POST ${apiPaths.identity.refresh}`]),
    );
    expect(api.rounds()).toBe(1);
  });

  it('reaches the accounts table two round trips after the sign-in answer', async () => {
    const { api, user } = await signInReady();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const table = await findAccountsTable();
    expect(table.textContent).toContain('Contoso');
    const shown = api.rounds();

    // Round 1 answered the sign-in; the table came with the next two: the licence check, the
    // profile, the storage secret and the feature flags, then the permissions, the applications and
    // the accounts list.
    expect(paths(api.between(0, 1))).toEqual([`POST ${apiPaths.identity.login}`]);
    expect(shown - 1).toBeLessThanOrEqual(2);
    expect(paths(api.between(1, shown))).toEqual(
      expect.arrayContaining([
        `GET ${apiPaths.licence.status}`,
        `GET ${apiPaths.profile}`,
        `GET ${apiPaths.identity.storageSecret}`,
        `GET ${apiPaths.featureFlags.list}`,
        `GET ${apiPaths.permissions}`,
        `GET ${apiPaths.userApplications}`,
        `GET ${apiPaths.tenants.list}`,
      ]),
    );
  });

  it('asks for the shell and the first page while the console texts are still on their way', async () => {
    const { api, user } = await signInReady();
    let release: () => void = () => undefined;
    consoleTexts.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // Both rounds after the sign-in's answer go out with the catalog still held: after a sign-in on
    // a cold visit its download would otherwise be one more round before them.
    await waitFor(() => expect(api.rounds()).toBe(3), { timeout: 10_000 });
    expect(paths(api.between(1, 3))).toEqual(
      expect.arrayContaining([
        `GET ${apiPaths.profile}`,
        `GET ${apiPaths.identity.storageSecret}`,
        `GET ${apiPaths.permissions}`,
        `GET ${apiPaths.tenants.list}`,
      ]),
    );
    // No secure screen draws before its texts.
    expect(screen.queryByRole('region', { name: 'Accounts table' })).toBeNull();
    release();
    expect((await findAccountsTable()).textContent).toContain('Contoso');
    consoleTexts.held = Promise.resolve();
  });
});

/** The sign-in page at its password step, the code behind sign-in loaded, the API answering in rounds. */
async function signInReady() {
  const state = encodeSignInState({ return_path: '/account/accounts' });
  signedIn({
    tenants: [tenantFixture({ name: 'Contoso' })],
    extra: {
      ...publicAnswers,
      [`POST ${apiPaths.identity.verifyUser}`]: () => json({ next: 'password', state }),
      [`POST ${apiPaths.identity.login}`]: () =>
        json({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 }),
      [`GET ${apiPaths.licence.status}`]: () => json({ status: 'VALID', redirect_url: null }),
      [`GET ${apiPaths.identity.storageSecret}`]: () => json({ secret: 'c2VjcmV0' }),
    },
  });
  renderApp(`/account/login?state=${state}`);
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), 'ada');
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.type(await screen.findByLabelText('Password'), 'correct horse');

  // The code behind sign-in is loaded first: in a browser it is one more download (or none, from
  // the service worker); here its first transform could outlast a round's quiet time on a busy machine.
  await Promise.all([
    import('../../../../src/lib/query-client.ts'),
    import('../../../../src/lib/offline/secure-session.ts'),
    import('../../../../src/routes/-stale-after-change.ts'),
    import('../../../../src/features/shell/components/app-shell.tsx'),
    import('../../../../src/features/accounts/list-state.ts'),
    import('../../../../src/features/accounts/components/accounts-list-page.tsx'),
  ]);
  return { api: answerInRounds(), user };
}
