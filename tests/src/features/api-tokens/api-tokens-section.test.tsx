// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ApiToken } from '../../../../contract/schemas/api-tokens.ts';
import { today } from '../../../../src/lib/dates.ts';
import { profileFixture } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import { API, USER_ID, usersApi } from '../users/users-support.ts';

const TOKEN_VALUE = `tct_${'A1b2C3d4'.repeat(5)}xyz`;

function tokenFixture(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 'token-1',
    user_id: USER_ID,
    name: 'Nightly export',
    hint: 'Wxyz',
    created_at: '2026-03-01T10:00:00Z',
    end_date: null,
    last_used_at: null,
    revoked_at: null,
    status: 'active',
    version: 3,
    ...overrides,
  };
}

/** One's own details page with the tokens API answering from `tokens`, which the calls change. */
function ownPage(initial: ApiToken[] = [tokenFixture()]) {
  let tokens = [...initial];
  const api = usersApi({
    profile: profileFixture({ id: USER_ID }),
    extra: {
      [`GET ${API}/user/${USER_ID}/api-tokens`]: () => json({ items: tokens, total: tokens.length }),
      [`POST ${API}/user/${USER_ID}/api-tokens`]: ({ body }) => {
        const created = tokenFixture({ id: 'token-2', name: (body as { name: string }).name, hint: 'Bxyz' });
        tokens = [created, ...tokens];
        return json({ ...created, value: TOKEN_VALUE }, 201);
      },
      [`PUT ${API}/user/${USER_ID}/api-tokens/token-1`]: () => new Response(null, { status: 204 }),
      [`DELETE ${API}/user/${USER_ID}/api-tokens/token-1`]: () => {
        tokens = tokens.filter((token) => token.id !== 'token-1');
        return new Response(null, { status: 204 });
      },
    },
  });
  renderApp(`/account/access/administrators/${USER_ID}`);
  return api;
}

function isCreation(call: { method: string; path: string }) {
  return call.method === 'POST' && call.path === `${API}/user/${USER_ID}/api-tokens`;
}

async function findSection() {
  return screen.findByRole('region', { name: 'API tokens' });
}

describe('API tokens on one’s own details page', () => {
  it('lists the active tokens by name and last four characters, never a value', async () => {
    ownPage();
    const section = await findSection();
    expect(await within(section).findByRole('rowheader', { name: 'Nightly export' })).toBeTruthy();
    expect(within(section).getByText('…Wxyz')).toBeTruthy();
    expect(within(section).getByText('No end date')).toBeTruthy();
  });

  it('shows a new token once, with copy, and forgets it when closed', async () => {
    const writeText = vi.fn(async () => undefined);
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = ownPage();
    const section = await findSection();
    await user.click(within(section).getByRole('button', { name: 'Create API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByLabelText(/Name/), 'Deploy');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('alertdialog', { name: 'Your new API token' });
    expect(within(shown).getByText('Copy this token now. It will not be shown again.')).toBeTruthy();
    expect((within(shown).getByLabelText('API token Deploy') as HTMLInputElement).value).toBe(TOKEN_VALUE);
    await user.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(TOKEN_VALUE);
    expect(await within(shown).findByText('Copied.')).toBeTruthy();
    // The form proposes 90 days (decision 018 §6), in the server's calendar, UTC.
    expect(api.calls.find(isCreation)?.body).toEqual({
      name: 'Deploy',
      end_date: today('UTC').add({ days: 90 }).toString(),
    });

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await within(section).findByRole('rowheader', { name: 'Deploy' })).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(TOKEN_VALUE);
  });

  it('refuses an end date that is not after today before sending anything', async () => {
    const user = userEvent.setup();
    const api = ownPage();
    const section = await findSection();
    await user.click(within(section).getByRole('button', { name: 'Create API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByLabelText(/Name/), 'Old');
    await user.clear(within(dialog).getByLabelText(/End date/));
    await user.type(within(dialog).getByLabelText(/End date/), '2020-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(/end date/i, { selector: '.field__error' })).toBeTruthy();
    expect(api.calls.some(isCreation)).toBe(false);
  });

  it('revokes a token only once confirmed', async () => {
    const user = userEvent.setup();
    const api = ownPage();
    const section = await findSection();
    await user.click(await within(section).findByRole('button', { name: 'Revoke Nightly export' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke Nightly export?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(within(section).getByRole('button', { name: 'Revoke Nightly export' }));
    const again = await screen.findByRole('alertdialog', { name: 'Revoke Nightly export?' });
    await user.click(within(again).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByText('Nightly export revoked.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
    expect(await within(section).findByText('You have no active API token.')).toBeTruthy();
  });

  it('changes the end date on the version it showed', async () => {
    const user = userEvent.setup();
    const api = ownPage();
    const section = await findSection();
    await user.click(await within(section).findByRole('button', { name: 'Edit end date of Nightly export' }));
    const dialog = await screen.findByRole('dialog', { name: 'End date of Nightly export' });
    await user.type(within(dialog).getByLabelText(/End date/), '2099-12-31');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = api.calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ end_date: '2099-12-31' });
    expect(put?.headers.get('If-Match')).toBe('"3"');
    expect(await screen.findByText(/^Nightly export now ends on .*2099/)).toBeTruthy();
  });

  it('says so when a token’s end date is removed', async () => {
    const user = userEvent.setup();
    ownPage([tokenFixture({ end_date: '2099-12-31' })]);
    const section = await findSection();
    await user.click(await within(section).findByRole('button', { name: 'Edit end date of Nightly export' }));
    const dialog = await screen.findByRole('dialog', { name: 'End date of Nightly export' });
    await user.clear(within(dialog).getByLabelText(/End date/));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nightly export now has no end date.')).toBeTruthy();
  });
});

describe('another administrator’s details page', () => {
  it('has no API tokens section', async () => {
    const api = usersApi();
    renderApp(`/account/access/administrators/${USER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'API tokens' })).toBeNull();
    expect(api.calls.some((call) => call.path.endsWith('/api-tokens'))).toBe(false);
  });
});
