import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { FeatureFlag } from '../../../../contract/feature-flags.ts';
import { UI_API_V1 } from '../../../../contract/paths.ts';
import { BUILT_IN_ROLES, type PermissionName } from '../../../../contract/permissions.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { TenantSummary } from '../../../../contract/schemas/tenants.ts';
import { ACCOUNT_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { json, type mockApi } from '../../support.tsx';
import { accountsApi } from './account-details-support.ts';

export const API = UI_API_V1;
export const PARTNER_ACCOUNT_ID = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99';
export const OTHER_PARTNER_ID = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';

export const SYSTEM_ADMINISTRATOR = BUILT_IN_ROLES.system_administrator.permissions;
export const PARTNER_ADMINISTRATOR = BUILT_IN_ROLES.partner_administrator.permissions;
export const ACCOUNT_ADMINISTRATOR = BUILT_IN_ROLES.account_administrator.permissions;
/** Sees accounts and may manage them, but may not create any (no organization or permission rights). */
export const ACCOUNT_MANAGER_ONLY: readonly PermissionName[] = ['VIEW_ACCOUNT', 'MANAGE_ACCOUNT'];

let nextId = 0;

/** A row of GET tenants with an id and name of its own; the whole account record is a superset of it. */
export function tenantFixture(overrides: Partial<TenantSummary> = {}): TenantSummary {
  nextId += 1;
  const id = `00000000-0000-4000-8000-${String(nextId).padStart(12, '0')}`;
  const name = `Account ${nextId}`;
  return customerFixture({
    id,
    name,
    display_name: name,
    friendly_identifier: `account-${nextId}`,
    ...overrides,
  });
}

interface SignedInOptions {
  profile?: Profile;
  permissions?: readonly PermissionName[];
  flags?: Partial<Record<FeatureFlag, boolean>>;
  /** The rows of GET tenants, whatever the query; `total` defaults to their number. */
  tenants?: readonly TenantSummary[];
  total?: number;
  expiring?: { '30': number; '60': number };
  extra?: Parameters<typeof mockApi>[0];
}

/**
 * A signed-in user on the real console with the accounts list's calls answering from fixtures. The
 * address of each of those calls (and of the permissions, which name the selected account) is kept,
 * query string included, for assertions on what was asked.
 */
export function signedIn({
  profile,
  permissions = SYSTEM_ADMINISTRATOR,
  flags = {},
  tenants = [tenantFixture()],
  total = tenants.length,
  expiring = { '30': 0, '60': 0 },
  extra = {},
}: SignedInOptions = {}) {
  const requests: URL[] = [];
  const listCalls: Parameters<typeof mockApi>[0] = {
    [`GET ${API}/permission`]: () =>
      json({ items: permissions.map((name) => ({ name })), total: permissions.length }),
    [`GET ${API}/tenants`]: () => json({ items: tenants, total }),
    [`GET ${API}/tenants/expiring`]: () => json(expiring),
    ...extra,
  };
  const recorded = Object.fromEntries(
    Object.entries(listCalls).map(([key, handler]) => [
      key,
      (request: Parameters<typeof handler>[0]) => {
        requests.push(request.url);
        return handler(request);
      },
    ]),
  );
  return { ...accountsApi({ profile, permissions, featureFlags: flags, extra: recorded }), requests };
}

/** The queries GET `path` was called with, in order. */
export function queriesOf(requests: readonly URL[], path: string): URLSearchParams[] {
  return requests.filter((url) => url.pathname === path).map((url) => url.searchParams);
}

/** The queries of the accounts table, in order (the header's account switcher asks GET tenants too). */
export function listQueries(requests: readonly URL[]): URLSearchParams[] {
  return queriesOf(requests, `${API}/tenants`).filter((query) => query.get('limit') === '10');
}

export function partnerProfile(overrides: Partial<Profile> = {}): Profile {
  return profileFixture({
    access_scope: 'partner',
    primary_account_id: PARTNER_ACCOUNT_ID,
    accounts: [
      {
        id: PARTNER_ACCOUNT_ID,
        display_name: 'Northwind Partners',
        active: true,
        service_period: { to: null },
      },
    ],
    ...overrides,
  });
}

export function accountProfile(overrides: Partial<Profile> = {}): Profile {
  return profileFixture({
    access_scope: 'account',
    accounts: [{ id: ACCOUNT_ID, display_name: 'Example Corp', active: true, service_period: { to: null } }],
    ...overrides,
  });
}

/** Waits until the table shows its rows. */
export async function findAccountsTable() {
  return screen.findByRole('table', { name: 'Accounts' });
}

/** Header texts without the sort marks. */
export function columnHeaders(table: HTMLElement): string[] {
  return [...table.querySelectorAll('thead th')].map(
    (header) => header.textContent?.replace(/[▲▼↕]/g, '').trim() ?? '',
  );
}

/**
 * Chooses a menu entry by keyboard, as a keyboard user would. (Ark's menus keep pointer state between
 * tests in jsdom, where every element sits at 0,0; the keyboard path has no such state.)
 */
export async function chooseMenuItem(user: UserEvent, trigger: string, item: string): Promise<void> {
  await user.click(await screen.findByRole('button', { name: trigger }));
  await screen.findByRole('menuitem', { name: item });
  for (let step = 0; step < 10; step += 1) {
    await user.keyboard('{ArrowDown}');
    if (document.querySelector('[role="menuitem"][data-highlighted]')?.textContent?.trim() === item) break;
  }
  await user.keyboard('{Enter}');
}
