// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { organizationKeys } from '../../../../src/features/organizations/queries.ts';
import { ORGANIZATION_ID, organizationFixture, profileFixture } from '../../fixtures.ts';
import { stubServiceWorker } from '../../lib/offline/offline-support.ts';
import { json, keepChangesOf, outboxBase, renderApp } from '../../support.tsx';
import {
  BASE,
  CONTACT_ID,
  contactFixture,
  MANAGER,
  noContent,
  organizationsApi,
} from './organizations-api.ts';

// A queued change is moved onto the version an earlier queued change of its object makes only when
// its base, the fields its screen showed, equals what that change set (docs/decisions/013). These
// tests pin what the pages send as that base.

const ORGANIZATION_PATH = `${BASE}/organizations/${ORGANIZATION_ID}`;
const CONTACT_PATH = `${ORGANIZATION_PATH}/contacts/${CONTACT_ID}`;
// The fields an edit sends, as the fixtures' organization and contact have them.
const {
  id: _o,
  account_id: _a,
  contacts_count: _c,
  version: _v,
  ...SHOWN_ORGANIZATION
} = organizationFixture();
const { id: _i, organization_id: _p, version: _w, ...SHOWN_CONTACT } = contactFixture();

let restoreWorker = () => {};

/**
 * Once the secure layout has started (without a storage secret here, so without a key), the page is
 * given a live storage key of the user and a worker controls it, so the worker may keep their changes.
 */
async function keepChanges() {
  restoreWorker = stubServiceWorker([]);
  await keepChangesOf(profileFixture().id);
}

afterEach(() => {
  restoreWorker();
});

describe('the base a change is sent with', () => {
  it('is the organization as the edit form started, even when the cached one changes while it is open', async () => {
    const { calls } = organizationsApi(MANAGER, { [`PUT ${ORGANIZATION_PATH}`]: () => noContent() });
    const { queryClient } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/edit`);
    const city = await screen.findByRole('textbox', { name: 'City' });
    await keepChanges();
    // Another tab's change reaches this tab's cache on the same version: the open form does not take it.
    act(() => {
      queryClient.setQueryData(
        organizationKeys.detail(ORGANIZATION_ID),
        organizationFixture({ name: 'Renamed in another tab' }),
      );
    });
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Acme Trust GmbH');
    const user = userEvent.setup();
    await user.clear(city);
    await user.type(city, 'Hamburg');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await screen.findByText('Organization edited.');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ ...SHOWN_ORGANIZATION, city: 'Hamburg' });
    expect(outboxBase(put?.headers)).toEqual(SHOWN_ORGANIZATION);
  });

  it('is the organization as its page shows it when it is deleted', async () => {
    const { calls } = organizationsApi(MANAGER, { [`DELETE ${ORGANIZATION_PATH}`]: () => noContent() });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    await keepChanges();
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));

    await screen.findByText('Organization deleted.');
    expect(outboxBase(calls.find((call) => call.method === 'DELETE')?.headers)).toEqual(SHOWN_ORGANIZATION);
  });

  it('is the contact as the editor started when it is edited, and as its page shows it when it is deleted', async () => {
    const { calls } = organizationsApi(MANAGER, {
      [`GET ${CONTACT_PATH}`]: () => json(contactFixture()),
      [`PUT ${CONTACT_PATH}`]: () => noContent(),
      [`DELETE ${CONTACT_PATH}`]: () => noContent(),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit contact' }));
    await keepChanges();
    const title = screen.getByRole('textbox', { name: 'Title (optional)' });
    await user.clear(title);
    await user.type(title, 'Chief information security officer');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Contact updated.');

    await user.click(screen.getByRole('button', { name: 'Delete contact' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete contact' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete contact' }));
    await screen.findByText('Contact deleted.');

    const sent = calls.filter((call) => call.method === 'PUT' || call.method === 'DELETE');
    expect(sent.map((call) => [call.method, outboxBase(call.headers)])).toEqual([
      ['PUT', SHOWN_CONTACT],
      ['DELETE', SHOWN_CONTACT],
    ]);
  });
});

describe('a page without a storage key', () => {
  it('sends no base, like the other outbox headers', async () => {
    const { calls } = organizationsApi(MANAGER, { [`DELETE ${ORGANIZATION_PATH}`]: () => noContent() });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(outboxBase(calls.find((call) => call.method === 'DELETE')?.headers)).toBeUndefined();
  });
});
