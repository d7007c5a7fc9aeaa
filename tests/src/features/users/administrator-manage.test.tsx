// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RoleDetails, RoleList } from '../../../../contract/schemas/users.ts';
import { ACCOUNT_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import {
  API,
  findAdministratorsTable,
  SYSTEM_ADMINISTRATOR,
  USER_ID,
  userFixture,
  userSummaryFixture,
  usersApi,
} from './users-support.ts';

const noContent = () => new Response(null, { status: 204 });

/** The signed-in system administrator, holding what the built-in role grants. */
const viewer = profileFixture({ permissions: SYSTEM_ADMINISTRATOR.map((name) => ({ name })) });

function role(overrides: Partial<RoleDetails>): RoleDetails {
  return {
    id: 'role-1',
    name: 'Account administrator',
    code: 'account_administrator',
    app_code: 'account_manager',
    account_id: null,
    account_name: null,
    built_in: true,
    status: 'active',
    permissions: ['VIEW_USER'],
    description: '',
    cloned_from: null,
    users_count: 0,
    created_at: '2026-01-02T09:00:00Z',
    version: 1,
    editable: false,
    ...overrides,
  };
}

const ROLES: RoleList = {
  items: [
    role({}),
    role({
      id: 'role-2',
      name: 'Key keeper',
      code: 'key_keeper',
      permissions: ['MANAGE_CA_LICENSE'],
    }),
  ],
  total: 2,
};

function accountHandlers() {
  return {
    [`GET ${API}/tenants`]: () =>
      json({
        items: [customerFixture({ id: ACCOUNT_ID, name: 'Example Corp', display_name: 'Example Corp' })],
        total: 1,
      }),
    [`GET ${API}/tenant/${ACCOUNT_ID}`]: () =>
      json(
        customerFixture({
          id: ACCOUNT_ID,
          applications: [
            {
              id: 'app-1',
              name: 'am',
              app_code: 'account_manager',
              app_name: 'Account Manager',
              context: 'account-manager',
              features: [],
              permissions: [],
            },
          ],
        }),
      ),
    [`GET ${API}/role`]: () => json(ROLES),
  };
}

describe('creating an administrator', () => {
  it('walks the four steps in the address, checks the username, and creates with the chosen roles', async () => {
    const created = userFixture({ id: USER_ID, email: 'linus@example.com' });
    const { calls } = usersApi({
      profile: viewer,
      extra: {
        ...accountHandlers(),
        [`GET ${API}/user/exists`]: ({ url }) =>
          json({ exists: url.searchParams.get('user_name') === 'taken' }),
        [`POST ${API}/user`]: () => json(created, 201),
        [`GET ${API}/user/${USER_ID}`]: () => json(created),
      },
    });
    const { router } = renderApp('/account/access/administrators/create');
    expect(await screen.findByRole('heading', { name: 'Create administrator', level: 1 })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Back/ })).toBeTruthy();
    const user = userEvent.setup();

    // Next checks this step only: the empty fields say so, nothing of the later steps does.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.hash).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('First name'));

    await user.type(screen.getByLabelText('First name'), 'Linus');
    await user.type(screen.getByLabelText('Last name'), 'Torvalds');
    await user.type(screen.getByLabelText('E-mail'), 'linus@example.com');
    await user.type(screen.getByLabelText('Username'), 'taken');
    await user.tab();
    expect(await screen.findByText('This username is already taken.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'linus');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('This username is already taken.')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.hash).toBe('step=2'));

    expect(await screen.findByText('Scope of the new administrator: Account')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.hash).toBe('step=3'));

    // A role granting what the viewer lacks is shown, disabled, with the reason.
    const keeper = await screen.findByRole('checkbox', { name: /Key keeper/ });
    expect((keeper as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText(/Roles you cannot grant are shown disabled/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /Account administrator/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.hash).toBe('step=4'));

    expect(screen.getByText('linus@example.com')).toBeTruthy();
    // The review names the roles chosen, read from the checked boxes of step 3.
    const rolesRow = [...document.querySelectorAll('.details__row')].find(
      (row) => row.querySelector('dt')?.textContent === 'Roles',
    );
    expect(rolesRow?.querySelector('dd')?.textContent).toBe('Account administrator');
    await user.click(screen.getByRole('button', { name: 'Create administrator' }));
    expect(
      await screen.findByText('Administrator created. An invitation was sent to linus@example.com.'),
    ).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/access/administrators/${USER_ID}`));
    const post = calls.find((call) => call.method === 'POST' && call.path === `${API}/user`);
    expect(post?.body).toEqual({
      first_name: 'Linus',
      last_name: 'Torvalds',
      email: 'linus@example.com',
      user_name: 'linus',
      phone: '',
      locale: 'en_US',
      primary_account_id: ACCOUNT_ID,
      account_ids: [],
      role_ids: ['role-1'],
      aliases: {},
      sign_in: 'standard',
    });
  });

  it('opens the step of a field the server refuses', async () => {
    usersApi({
      profile: viewer,
      extra: {
        ...accountHandlers(),
        [`GET ${API}/user/exists`]: () => json({ exists: false }),
        [`POST ${API}/user`]: () =>
          json({ error: { status: 409, message: 'Taken.', field: 'user_name', code: 'inUse' } }, 409),
      },
    });
    const { router } = renderApp('/account/access/administrators/role-user-create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('First name'), 'Linus');
    await user.type(screen.getByLabelText('Last name'), 'Torvalds');
    await user.type(screen.getByLabelText('E-mail'), 'linus@example.com');
    await user.type(screen.getByLabelText('Username'), 'linus');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('checkbox', { name: /Account administrator/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Create administrator' }));
    await waitFor(() => expect(router.state.location.hash).toBe('step=1'));
    expect(await screen.findByText('This username is already taken.')).toBeTruthy();
  });

  it('goes back to the first step when opened at a later one with nothing filled in', async () => {
    usersApi({ profile: viewer, extra: accountHandlers() });
    const { router } = renderApp('/account/access/administrators/create#step=3');
    await screen.findByRole('heading', { name: 'Create administrator', level: 1 });
    await waitFor(() => expect(router.state.location.hash).toBe('step=1'));
  });
});

describe('editing an administrator', () => {
  it('saves the fields on the version shown, with the user-updated notice', async () => {
    const { calls } = usersApi({
      profile: viewer,
      extra: {
        ...accountHandlers(),
        [`PUT ${API}/user/${USER_ID}`]: noContent,
      },
    });
    const { router } = renderApp(`/account/access/administrators/${USER_ID}/edit`);
    const user = userEvent.setup();
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Amazing Grace');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Administrator updated.')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT' && call.path === `${API}/user/${USER_ID}`);
    expect(put?.headers.get('If-Match')).toBe('"2"');
    expect(put?.body).toMatchObject({ first_name: 'Amazing Grace', user_name: 'grace', locale: 'de_DE' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/access/administrators/${USER_ID}`));
  });

  it('edits the aliases of a system-scope administrator as rows', async () => {
    const { calls } = usersApi({
      profile: viewer,
      extra: {
        ...accountHandlers(),
        [`GET ${API}/user/${USER_ID}`]: () =>
          json(userFixture({ access_scope: 'system', aliases: { badge: 'B-17' } })),
        [`PUT ${API}/user/${USER_ID}`]: noContent,
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}/edit`);
    const user = userEvent.setup();
    const identifier = await screen.findByLabelText('Identifier 1');
    expect((identifier as HTMLInputElement).value).toBe('badge');
    await user.click(screen.getByRole('button', { name: 'Add alias' }));
    await user.type(screen.getByLabelText('Identifier 2'), 'bad id');
    await user.type(screen.getByLabelText('Value 2'), '4.12');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid identifier.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Identifier 2'));
    await user.type(screen.getByLabelText('Identifier 2'), 'desk');
    await user.clear(screen.getByLabelText('Value 1'));
    await user.type(screen.getByLabelText('Value 1'), 'B-18');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Administrator updated.')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT' && call.path === `${API}/user/${USER_ID}`);
    expect(put?.body).toMatchObject({ aliases: { badge: 'B-18', desk: '4.12' } });
  });

  it('changes accounts and roles with PUT access and the permission-edited notice', async () => {
    const { calls } = usersApi({
      profile: viewer,
      extra: {
        ...accountHandlers(),
        [`GET ${API}/user/${USER_ID}`]: () =>
          json(
            userFixture({
              roles: [
                {
                  id: 'role-1',
                  name: 'Account administrator',
                  code: 'account_administrator',
                  app_code: 'account_manager',
                  built_in: true,
                },
              ],
            }),
          ),
        [`PUT ${API}/user/${USER_ID}/access`]: noContent,
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}/role-edit`);
    const user = userEvent.setup();
    const current = await screen.findByRole('checkbox', { name: /Account administrator/ });
    expect((current as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Permissions edited.')).toBeTruthy();
    const put = calls.find((call) => call.path === `${API}/user/${USER_ID}/access`);
    expect(put?.body).toEqual({ account_ids: [], role_ids: ['role-1'] });
    expect(put?.headers.get('If-Match')).toBe('"2"');
  });

  it('does not offer one’s own roles for editing', async () => {
    usersApi({
      profile: viewer,
      extra: { [`GET ${API}/user/${viewer.id}`]: () => json(userFixture({ id: viewer.id })) },
    });
    renderApp(`/account/access/administrators/${viewer.id}/role-edit`);
    expect(await screen.findByRole('heading', { name: 'You cannot change your own roles' })).toBeTruthy();
  });
});

async function openRowMenu(name: string) {
  const table = await findAdministratorsTable();
  const user = userEvent.setup();
  await user.click(within(table).getByRole('button', { name: `Actions for ${name}` }));
  return user;
}

/** Highlights a menu entry and chooses it with Enter, as a keyboard user does. */
async function chooseItem(user: ReturnType<typeof userEvent.setup>, name: string) {
  const item = await screen.findByRole('menuitem', { name });
  for (let step = 0; step < 15 && !item.hasAttribute('data-highlighted'); step += 1) {
    await user.keyboard('{ArrowDown}');
  }
  expect(item.hasAttribute('data-highlighted')).toBe(true);
  await user.keyboard('{Enter}');
}

describe('actions on administrators', () => {
  it('disables another administrator after confirming, with the notice', async () => {
    const row = userSummaryFixture({ id: USER_ID, first_name: 'Grace', last_name: 'Hopper', version: 4 });
    const { calls } = usersApi({
      profile: viewer,
      users: [row],
      extra: { [`PUT ${API}/user/${USER_ID}/enable`]: noContent },
    });
    renderApp('/account/access/administrators');
    const user = await openRowMenu('Grace Hopper');
    await chooseItem(user, 'Disable');
    const dialog = await screen.findByRole('alertdialog', { name: 'Disable administrator' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Administrator disabled.')).toBeTruthy();
    const put = calls.find((call) => call.path === `${API}/user/${USER_ID}/enable`);
    expect(put?.body).toEqual({ enabled: false });
    expect(put?.headers.get('If-Match')).toBe('"4"');
  });

  it('shows the actions on oneself disabled with the reason', async () => {
    const own = userSummaryFixture({ id: viewer.id, first_name: 'Ada', last_name: 'Lovelace' });
    usersApi({ profile: viewer, users: [own] });
    renderApp('/account/access/administrators');
    const user = await openRowMenu('Ada Lovelace');
    const remove = await screen.findByRole('menuitem', { name: /Delete/ });
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(remove.textContent).toContain('You cannot do this to yourself.');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('resends the verification link of a pending administrator', async () => {
    const row = userSummaryFixture({
      id: USER_ID,
      first_name: 'Grace',
      last_name: 'Hopper',
      status: 'pending',
      email_verified: false,
    });
    const { calls } = usersApi({
      profile: viewer,
      users: [row],
      extra: { [`PUT ${API}/user/${USER_ID}/verification`]: noContent },
    });
    renderApp('/account/access/administrators');
    const user = await openRowMenu('Grace Hopper');
    await chooseItem(user, 'Resend verification link');
    expect(await screen.findByText('Verification link resent.')).toBeTruthy();
    expect(
      calls.some((call) => call.method === 'PUT' && call.path === `${API}/user/${USER_ID}/verification`),
    ).toBe(true);
  });

  it.each([
    [
      'resets an enrolled administrator and says the set-up e-mail went',
      noContent,
      'Two-factor authentication reset; a set-up e-mail was sent.',
    ],
    [
      'says so when the server finds nothing to reset, sending nothing',
      () => json({ error: { status: 409, message: 'No two-factor to reset.', code: 'noTwoFactor' } }, 409),
      'This user has no two-factor authentication to reset.',
    ],
  ])('two-factor reset: %s', async (_label, answer, shown) => {
    const row = userSummaryFixture({ id: USER_ID, first_name: 'Grace', last_name: 'Hopper' });
    usersApi({
      profile: viewer,
      users: [row],
      extra: {
        [`GET ${API}/user/${USER_ID}`]: () => json(userFixture({ mfa: { enrolled: true, locked: false } })),
        [`DELETE ${API}/user/${USER_ID}/mfa`]: answer,
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await chooseItem(user, 'Reset two-factor authentication');
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(shown)).toBeTruthy();
  });

  it('deletes the selected administrators once DELETE is typed', async () => {
    const first = userSummaryFixture({ first_name: 'Grace', last_name: 'One' });
    const second = userSummaryFixture({ first_name: 'Grace', last_name: 'Two' });
    const deleted: string[] = [];
    usersApi({
      profile: viewer,
      users: [first, second],
      extra: {
        [`DELETE ${API}/user`]: ({ url }) => {
          deleted.push(url.searchParams.get('ids') ?? '');
          return noContent();
        },
      },
    });
    renderApp('/account/access/administrators');
    const table = await findAdministratorsTable();
    const user = userEvent.setup();
    await user.click(within(table).getByRole('checkbox', { name: 'Select all administrators on this page' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete administrators' });
    expect(within(dialog).getByText(/The certificates they own are revoked\./)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete administrators' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm);
    expect(await screen.findByText('2 administrators deleted.')).toBeTruthy();
    expect(deleted).toEqual([`${first.id},${second.id}`]);
  });

  it('sets the default application on the details page', async () => {
    const { calls } = usersApi({
      profile: viewer,
      extra: {
        [`PUT ${API}/user/${USER_ID}/defaultManager`]: noContent,
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}`);
    const user = userEvent.setup();
    const select = await screen.findByRole('combobox', { name: 'Default application' });
    await user.selectOptions(select, 'account-manager');
    await user.click(screen.getByRole('button', { name: 'Set default application' }));
    expect(await screen.findByText('Default application updated.')).toBeTruthy();
    const put = calls.find((call) => call.path === `${API}/user/${USER_ID}/defaultManager`);
    expect(put).toBeTruthy();
  });

  it('shows a refused mail as an error notice', async () => {
    const row = userSummaryFixture({ id: USER_ID, first_name: 'Grace', last_name: 'Hopper' });
    usersApi({
      profile: viewer,
      users: [row],
      extra: {
        [`PUT ${API}/user/${USER_ID}/resendSsoEmail`]: () =>
          json({ error: { status: 409, message: 'No SSO.', code: 'noSingleSignOn' } }, 409),
      },
    });
    renderApp('/account/access/administrators');
    const user = await openRowMenu('Grace Hopper');
    await chooseItem(user, 'Resend single sign-on e-mail');
    expect(await screen.findByText(/cannot sign in with single sign-on/)).toBeTruthy();
  });
});
