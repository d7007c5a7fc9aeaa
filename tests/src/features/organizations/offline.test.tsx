// @vitest-environment jsdom
import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ownerTag } from '../../../../contract/offline-storage.ts';
import { OUTBOX_CHANNEL } from '../../../../contract/outbox.ts';
import { ORGANIZATION_ID, organizationFixture, profileFixture } from '../../fixtures.ts';
import { freshIndexedDb, randomSecret } from '../../lib/offline/offline-support.ts';
import { closeTabs, flushOfflineCaches, json, renderApp } from '../../support.tsx';
import { BASE, MANAGER, organizationsApi } from './organizations-api.ts';

const SECRET = randomSecret();
const storageSecret = { 'GET /imauth/api/v1/storage-secret': () => json({ secret: SECRET }) };

/** A first visit with the network: the list and the organization are loaded, and kept sealed. */
async function visitOnline() {
  organizationsApi(MANAGER, storageSecret);
  const view = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
  expect(await screen.findByRole('heading', { name: 'Acme Trust GmbH', level: 1 })).toBeTruthy();
  await act(() => view.router.navigate({ to: '/ca/organizations' }));
  await screen.findByRole('table', { name: 'Organizations' });
  await act(() => flushOfflineCaches());
  view.unmount();
  await closeTabs();
  view.session.forgetToken();
}

function noNetwork() {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
  );
}

beforeEach(freshIndexedDb);
afterEach(async () => {
  await closeTabs();
  onlineManager.setOnline(true);
});

describe('organizations offline', () => {
  it('opens on the last user’s cached organizations without a network, saying how old they are', async () => {
    await visitOnline();
    noNetwork();
    renderApp('/account/ca/organizations');
    const table = await screen.findByRole('table', { name: 'Organizations' });
    expect(within(table).getByRole('link', { name: 'Acme Trust GmbH' })).toBeTruthy();
    expect(screen.getByText(/Offline — data as of/)).toBeTruthy();
    // Cached screens open; the organization's page was loaded before, so it opens too.
    await userEvent.setup().click(within(table).getByRole('link', { name: 'Acme Trust GmbH' }));
    expect(await screen.findByRole('heading', { name: 'Acme Trust GmbH', level: 1 })).toBeTruthy();
  });

  it('marks an organization with a change waiting in the outbox, and lists one created offline', async () => {
    await visitOnline();
    noNetwork();
    renderApp('/account/ca/organizations');
    const table = await screen.findByRole('table', { name: 'Organizations' });
    const owner = await ownerTag(profileFixture().id);
    const channel = new BroadcastChannel(OUTBOX_CHANNEL);
    channel.postMessage({
      type: 'outbox',
      owner,
      entries: [
        {
          id: 'edit-1',
          sequence: 1,
          accountId: organizationFixture().account_id,
          method: 'PUT',
          url: `${BASE}/organizations/${ORGANIZATION_ID}`,
          body: { name: 'Acme Trust AG' },
          summary: 'Edit organization Acme Trust GmbH',
          createdAt: '2026-11-20T09:30:00Z',
          attempts: 0,
          state: 'pending',
          error: null,
          current: null,
        },
        {
          id: 'create-1',
          sequence: 2,
          accountId: organizationFixture().account_id,
          method: 'POST',
          url: `${BASE}/organizations`,
          body: {
            ...organizationFixture(),
            name: 'Globex Trust',
            account_id: organizationFixture().account_id,
          },
          summary: 'Create organization Globex Trust',
          createdAt: '2026-11-20T09:31:00Z',
          attempts: 0,
          state: 'pending',
          error: null,
          current: null,
        },
      ],
    });
    channel.close();
    await waitFor(() => expect(within(table).getAllByText('Pending sync')).toHaveLength(2));
    expect(within(table).getByRole('row', { name: /Acme Trust GmbH.*Pending sync/ })).toBeTruthy();
    // Not on the server yet: no page to open.
    const created = within(table).getByRole('row', { name: /Globex Trust/ });
    expect(within(created).queryByRole('link')).toBeNull();
  });
});
