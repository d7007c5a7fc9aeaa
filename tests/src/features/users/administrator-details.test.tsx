// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type PermissionFlag, permissionFlagsFrom } from '../../../../contract/permissions.ts';
import { navigationItems } from '../../../../src/features/shell/navigation.ts';
import { profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import {
  API,
  findAdministratorsTable,
  USER_ID,
  userFixture,
  userSummaryFixture,
  usersApi,
} from './users-support.ts';

describe('administrator details', () => {
  it('shows the administrator, with a Back link instead of breadcrumbs', async () => {
    usersApi({
      extra: {
        [`GET ${API}/user/${USER_ID}`]: () =>
          json(
            userFixture({
              phone: '+4930123',
              aliases: {},
              access_scope: 'system',
              mfa: { enrolled: true, locked: false },
            }),
          ),
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText('Not verified')).toBeTruthy();
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('+4930123')).toBeTruthy();
    expect(within(profile).getByText('Deutsch')).toBeTruthy();
    expect(within(profile).getByText('Aliases')).toBeTruthy();
    const roles = screen.getByRole('region', { name: 'Accounts and roles' });
    expect(await within(roles).findByText('Account Manager', { selector: 'dt' })).toBeTruthy();
    expect(within(roles).getByText('Account administrator')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Sign-in' })).getByText('Set up')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Back/ })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      `/account/access/administrators/${USER_ID}/edit`,
    );
    expect(screen.getByRole('button', { name: 'Actions' })).toBeTruthy();
  });

  it('goes back to the list it was opened from, filters and all', async () => {
    const row = userSummaryFixture({ id: USER_ID, first_name: 'Grace', last_name: 'Hopper' });
    usersApi({ users: [row] });
    const { router } = renderApp('/account/access/administrators?status=pending');
    const table = await findAdministratorsTable();
    const user = userEvent.setup();
    await user.click(within(table).getByRole('link', { name: 'Grace Hopper' }));
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await findAdministratorsTable();
    expect(router.state.location.pathname).toBe('/access/administrators');
    expect(router.state.location.search).toEqual({ status: 'pending' });
  });

  it('says an administrator out of reach is not found, with the way back to the list', async () => {
    usersApi({ extra: { [`GET ${API}/user/${USER_ID}`]: () => apiError(404, 'Not found.') } });
    renderApp(`/account/access/administrators/${USER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Administrator not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to administrators' }).getAttribute('href')).toBe(
      '/account/access/administrators',
    );
  });

  it('shows the 403 page when the server refuses', async () => {
    usersApi({ extra: { [`GET ${API}/user/${USER_ID}`]: () => apiError(403, 'Forbidden.') } });
    renderApp(`/account/access/administrators/${USER_ID}`);
    expect(await screen.findByText('403')).toBeTruthy();
  });

  it('lets a person without user permissions open their own details, and nobody else’s', async () => {
    const own = profileFixture({ id: USER_ID });
    const other = userSummaryFixture().id;
    // The server answers both here; the console still shows only the own page to such a person.
    usersApi({
      profile: own,
      permissions: ['VIEW_ACCOUNT'],
      extra: {
        [`GET ${API}/user/${other}`]: () => json(userFixture({ id: other })),
        [`GET ${API}/user/${other}/applications`]: () => json({ items: [], total: 0 }),
      },
    });
    const { router } = renderApp(`/account/access/administrators/${USER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    await act(() => router.navigate({ to: '/access/administrators/$id', params: { id: other } }));
    expect(await screen.findByText('403')).toBeTruthy();
  });

  it('offers Change password and the profile edit on one’s own page, and neither on someone else’s', async () => {
    const other = userSummaryFixture().id;
    usersApi({
      profile: profileFixture({ id: USER_ID }),
      extra: {
        [`GET ${API}/user/${other}`]: () =>
          json(userFixture({ id: other, first_name: 'Alan', last_name: 'Turing' })),
        [`GET ${API}/user/${other}/applications`]: () => json({ items: [], total: 0 }),
      },
    });
    const { router } = renderApp(`/account/access/administrators/${USER_ID}`);
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 });
    expect(screen.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe(
      '/account/profile/change-password',
    );
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/account/profile/edit');
    await act(() => router.navigate({ to: '/access/administrators/$id', params: { id: other } }));
    await screen.findByRole('heading', { name: 'Alan Turing', level: 1 });
    expect(screen.queryByRole('link', { name: 'Change password' })).toBeNull();
  });
});

describe('profile redirect', () => {
  it('loads the profile, takes its language and replaces the address with the own details page', async () => {
    const own = profileFixture({ id: USER_ID, locale: 'de_DE' });
    usersApi({ profile: own, permissions: [] });
    const { router } = renderApp('/account/profile/details');
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/access/administrators/${USER_ID}`);
    // Replaced, not pushed: Back does not return to the redirect.
    expect(router.history.length).toBe(1);
    await waitFor(() => expect(i18n.locale).toBe('de'));
  });
});

describe('navigation rule', () => {
  const accessChildren = (held: PermissionFlag[]) => {
    const flags = permissionFlagsFrom([]);
    for (const flag of held) flags[flag] = true;
    const items = navigationItems({
      flags,
      scope: 'system',
      profile: { has_onelogin_id: false, onelogin_url: null },
      rolesFeatureEnabled: false,
    });
    return items.find((item) => item.id === 'access')?.children.map((child) => child.id) ?? [];
  };

  it('shows Access › Administrators with view user, manage account user or manage system user only', () => {
    for (const flag of ['canViewUser', 'canManageAccountUser', 'canManageSystemUser'] as const) {
      expect(accessChildren([flag])).toContain('administrators');
    }
    expect(accessChildren(['canViewAccount', 'canViewUserRole'])).toEqual([]);
  });

  it('lets the server decide: a refused list shows our words, not the page', async () => {
    usersApi({ extra: { [`GET ${API}/user`]: () => apiError(403, 'Forbidden.') } });
    renderApp('/account/access/administrators');
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Administrators' })).toBeNull();
  });
});
