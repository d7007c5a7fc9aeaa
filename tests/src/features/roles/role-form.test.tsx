// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_GROUPS } from '../../../../contract/permissions.ts';
import type { RoleDetails } from '../../../../contract/schemas/users.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { apiError, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => toaster.remove());

const API = '/account/ui-api/v1';
const ROLES = '/account/access/manage-user-roles';
const ACCOUNT_ADMINISTRATOR = BUILT_IN_ROLES.account_administrator.permissions;
/** The viewer grants what an account administrator holds, nothing more. */
const GRANTABLE = new Set<string>(ACCOUNT_ADMINISTRATOR);

function roleFixture(overrides: Partial<RoleDetails> = {}): RoleDetails {
  return {
    id: 'role-7',
    name: 'Auditors',
    code: null,
    app_code: 'account_manager',
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    built_in: false,
    status: 'active',
    permissions: ['VIEW_USER', 'VIEW_AUDIT_LOG'],
    description: 'Read the log',
    cloned_from: null,
    created_at: '2026-01-02T09:00:00Z',
    version: 4,
    users_count: 2,
    editable: true,
    ...overrides,
  };
}

function rolesApi(extra: Parameters<typeof mockApi>[0] = {}, unique = true) {
  return mockApi({
    ...signedInHandlers(profileFixture({ access_scope: 'account' }), ACCOUNT_ADMINISTRATOR),
    [`GET ${API}/permissiongroup`]: () =>
      json({
        items: PERMISSION_GROUPS.account_manager.map((group) => ({
          id: group.id,
          permissions: group.permissions.map((name) => ({ name, grantable: GRANTABLE.has(name) })),
        })),
        total: PERMISSION_GROUPS.account_manager.length,
      }),
    [`GET ${API}/tenant/${ACCOUNT_ID}`]: () => apiError(404, 'Not found.'),
    [`GET ${API}/role/unique`]: () => json({ unique }),
    ...extra,
  });
}

async function findBox(name: string) {
  return screen.findByRole('checkbox', { name });
}

type User = ReturnType<typeof userEvent.setup>;

async function clickNext(user: User) {
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

/** The step the address names (`#step=n`), 1 without one. */
function stepOf(router: ReturnType<typeof renderApp>['router']): number {
  const match = /step=(\d+)/.exec(router.state.location.hash);
  return match ? Number(match[1]) : 1;
}

describe('Create role', () => {
  it('ticks View with Manage, disables what cannot be granted with the reason, and sends the chosen set', async () => {
    const api = rolesApi({
      [`POST ${API}/role`]: ({ body }) => json({ ...roleFixture(), ...(body as object), id: 'role-9' }, 201),
      [`GET ${API}/role/role-9`]: () => json(roleFixture({ id: 'role-9', name: 'Helpdesk' })),
      [`GET ${API}/role/role-9/users`]: () => json({ items: [], total: 0 }),
    });
    const { router } = renderApp(`${ROLES}/create-role`);
    const user = userEvent.setup();

    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Helpdesk');
    await clickNext(user);
    await waitFor(() => expect(stepOf(router)).toBe(2));

    const systemSettings = await findBox('Manage: System settings');
    expect((systemSettings as HTMLInputElement).disabled).toBe(true);
    const reason = document.getElementById(systemSettings.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/cannot be granted: you do not hold them yourself/);

    await user.click(await findBox('Manage: Users'));
    expect(((await findBox('View: Users')) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('2 permissions chosen')).toBeTruthy();
    await clickNext(user);

    const review = await screen.findByRole('group', { name: 'Step 3 of 3: Review' });
    expect(within(review).getByText('Helpdesk')).toBeTruthy();
    expect(within(review).getByText('Manage: Users')).toBeTruthy();
    expect(within(review).getByText('View: Users')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create role' }));

    await waitFor(() =>
      expect(api.calls.some((call) => call.method === 'POST' && call.path === `${API}/role`)).toBe(true),
    );
    const post = api.calls.find((call) => call.method === 'POST' && call.path === `${API}/role`);
    expect(post?.body).toEqual({
      name: 'Helpdesk',
      description: '',
      application_id: 'account_manager',
      account_id: ACCOUNT_ID,
      permissions: expect.arrayContaining(['VIEW_USER', 'MANAGE_USER']),
    });
    expect((post?.body as { permissions: string[] } | undefined)?.permissions).toHaveLength(2);
    expect(await screen.findByText('Role created.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Helpdesk', level: 1 })).toBeTruthy();
  });

  it('says on leaving the name that another role has it', async () => {
    const api = rolesApi({}, false);
    renderApp(`${ROLES}/create-role`);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.type(name, 'Auditors');
    await user.tab();
    expect(
      await screen.findByText('A role with this name already exists for this account and application.'),
    ).toBeTruthy();
    const check = api.calls.find((call) => call.path === `${API}/role/unique`);
    expect(check).toBeDefined();
    // Next asks again and stays on the name.
    await clickNext(user);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(screen.getByRole('group', { name: 'Step 1 of 3: Role' }).hidden).toBe(false);
  });

  it('validates only the step’s fields on Next, keeps the step in the address, and goes back a step with Back', async () => {
    rolesApi();
    const { router } = renderApp(`${ROLES}/create-role`);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await clickNext(user);
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(stepOf(router)).toBe(1);
    expect(document.activeElement).toBe(name);

    await user.type(name, 'Helpdesk');
    await clickNext(user);
    await waitFor(() => expect(stepOf(router)).toBe(2));
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    await findBox('View: Users');
    // No permission is required: the role may start empty.
    await clickNext(user);
    await waitFor(() => expect(stepOf(router)).toBe(3));
    expect(
      await screen.findByText('None: the role grants nothing until permissions are added.'),
    ).toBeTruthy();

    router.history.back();
    await waitFor(() => expect(stepOf(router)).toBe(2));
    router.history.back();
    await waitFor(() => expect(stepOf(router)).toBe(1));
    // The inputs kept what was typed: one form holds every step.
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Helpdesk');
  });

  it('opened at a later step with an empty first step, starts at the first step', async () => {
    rolesApi();
    const { router } = renderApp(`${ROLES}/create-role#step=3`);
    await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(stepOf(router)).toBe(1));
  });

  it('opens the step of the field a server error names, and focuses it', async () => {
    const inUse = () =>
      json({ error: { status: 409, message: 'name: already in use', field: 'name', code: 'inUse' } }, 409);
    rolesApi({ [`POST ${API}/role`]: inUse });
    const { router } = renderApp(`${ROLES}/create-role`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Taken meanwhile');
    await clickNext(user);
    await waitFor(() => expect(stepOf(router)).toBe(2));
    await findBox('View: Users');
    await clickNext(user);
    await waitFor(() => expect(stepOf(router)).toBe(3));
    await user.click(screen.getByRole('button', { name: 'Create role' }));
    await waitFor(() => expect(stepOf(router)).toBe(1));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(
      await screen.findByText('A role with this name already exists for this account and application.'),
    ).toBeTruthy();
  });
});

describe('Clone role', () => {
  it('fills the form from the source, leaves out what cannot be granted and names the source', async () => {
    const source = roleFixture({
      id: 'role-1',
      name: 'System administrator',
      code: 'system_administrator',
      built_in: true,
      account_id: null,
      editable: false,
      permissions: ['VIEW_USER', 'MANAGE_SYSTEM_SETTINGS'],
    });
    const api = rolesApi({
      [`GET ${API}/role/role-1`]: () => json(source),
      [`POST ${API}/role`]: () => apiError(409, 'name: already in use'),
    });
    renderApp(`${ROLES}/clone-role/role-1`);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Clone role System administrator' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      'Copy of System administrator',
    );
    expect(
      ((await screen.findByRole('checkbox', { name: 'View: Users', hidden: true })) as HTMLInputElement)
        .checked,
    ).toBe(true);
    await clickNext(user);
    const notice = (await screen.findByText(/are left out, as you cannot grant them/)).closest(
      '[role="alert"], div',
    );
    expect(within(notice as HTMLElement).getByText('Manage: System settings')).toBeTruthy();
    await clickNext(user);
    await user.click(await screen.findByRole('button', { name: 'Create role' }));
    const isCreation = (call: { method: string; path: string }) =>
      call.method === 'POST' && call.path === `${API}/role`;
    await waitFor(() => expect(api.calls.some(isCreation)).toBe(true));
    const post = api.calls.find(isCreation);
    expect(post?.body).toMatchObject({ cloned_from: 'role-1', permissions: ['VIEW_USER'] });
  });
});

describe('Edit role', () => {
  it('sends the change on the role’s version', async () => {
    const api = rolesApi({
      [`GET ${API}/role/role-7`]: () => json(roleFixture()),
      [`PUT ${API}/role/role-7`]: () => new Response(null, { status: 204 }),
      [`GET ${API}/role/role-7/users`]: () => json({ items: [], total: 0 }),
    });
    renderApp(`${ROLES}/edit-role/role-7`);
    const user = userEvent.setup();
    // One step of name, description and permissions, the application and account shown fixed.
    expect(await screen.findByRole('group', { name: 'Step 1 of 2: Name and permissions' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Application' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Auditors');
    await user.click(await findBox('View: Audit log'));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await clickNext(user);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = api.calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('If-Match')).toBe('"4"');
    expect(put?.body).toEqual({ name: 'Auditors', description: 'Read the log', permissions: ['VIEW_USER'] });
    expect(await screen.findByText('Role updated.')).toBeTruthy();
  });

  it('explains instead of a form why a built-in role cannot be edited', async () => {
    rolesApi({
      [`GET ${API}/role/role-1`]: () =>
        json(
          roleFixture({
            id: 'role-1',
            name: 'Read-only auditor',
            code: 'read_only_auditor',
            built_in: true,
            editable: false,
          }),
        ),
    });
    renderApp(`${ROLES}/edit-role/role-1`);
    expect(
      await screen.findByRole('heading', { name: 'You cannot edit the role Read-only auditor' }),
    ).toBeTruthy();
    expect(screen.getByText(/Built-in roles cannot be changed/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
