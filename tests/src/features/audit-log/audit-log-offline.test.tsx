// @vitest-environment jsdom
import { onlineManager } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { freshIndexedDb, randomSecret } from '../../lib/offline/offline-support.ts';
import { closeTabs, flushOfflineCaches, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const SECRET = randomSecret();
const API = '/account/ui-api/v1';
const EVENT_ID = '7e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';

const event = {
  id: EVENT_ID,
  seq: 7,
  occurred_at: '2026-11-24T08:09:10.123Z',
  action: 'UPDATE',
  status: 'success',
  resource_type: 'ACCOUNT',
  resource_id: ACCOUNT_ID,
  account_id: ACCOUNT_ID,
  account_name: 'Example Corp',
  actor_id: null,
  actor_name: 'Ada Admin',
  ip_address: '203.0.113.7',
  user_agent: null,
  details: { changes: { name: { from: 'Example', to: 'Example Corp' } } },
  prev_hash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
};

/** A first visit with the network: the log and one event are loaded, and kept sealed. */
async function visitOnline() {
  mockApi({
    ...signedInHandlers(
      profileFixture({ access_scope: 'account', primary_account_id: ACCOUNT_ID }),
      BUILT_IN_ROLES.read_only_auditor.permissions,
    ),
    'GET /imauth/api/v1/storage-secret': () => json({ secret: SECRET }),
    [`GET ${API}/audit-log`]: () => json({ items: [event], total: 1 }),
    [`GET ${API}/audit-log/${EVENT_ID}`]: () => json(event),
    [`GET ${API}/user`]: () => json({ items: [], total: 0 }),
  });
  const view = renderApp(`/account/reporting/logging/${EVENT_ID}`);
  await screen.findByRole('heading', { name: /^Updated at /, level: 1 });
  await act(() => view.router.navigate({ to: '/reporting/logging' }));
  await screen.findByRole('table', { name: 'Audit events' });
  await act(() => flushOfflineCaches());
  view.unmount();
  await closeTabs();
  view.session.forgetToken();
}

beforeEach(freshIndexedDb);
afterEach(async () => {
  await closeTabs();
  onlineManager.setOnline(true);
});

describe('the audit log offline', () => {
  it('opens on the cached log and event without a network, saying how old they are, Verify and exports held back', async () => {
    await visitOnline();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderApp('/account/reporting/logging');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(screen.getByText(/Offline — data as of/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' }).getAttribute('aria-disabled')).toBe('true');
    await userEvent.setup().click(within(table).getAllByRole('link')[0] as HTMLElement);
    expect(await screen.findByRole('heading', { name: /^Updated at /, level: 1 })).toBeTruthy();
    expect(screen.getByText(/Offline — data as of/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verify' }).getAttribute('aria-disabled')).toBe('true');
  });
});
