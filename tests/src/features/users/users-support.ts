import { screen } from '@testing-library/react';
import { afterEach } from 'vitest';
import { BUILT_IN_ROLES, type PermissionName } from '../../../../contract/permissions.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { RoleList, User, UserSummary } from '../../../../contract/schemas/users.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, signedInHandlers } from '../../support.tsx';

// Toasts live in one module-level queue; each test starts without the previous test's notices.
afterEach(() => toaster.remove());

export const API = '/account/ui-api/v1';
export const USER_ID = '4b7e1c2d-5a6f-4e8d-9c0b-1a2b3c4d5e6f';
export const SYSTEM_ADMINISTRATOR = BUILT_IN_ROLES.system_administrator.permissions;

let nextId = 0;

/** A row of GET user with an id and names of its own. */
export function userSummaryFixture(overrides: Partial<UserSummary> = {}): UserSummary {
  nextId += 1;
  return {
    id: `00000000-0000-4000-9000-${String(nextId).padStart(12, '0')}`,
    first_name: 'Grace',
    last_name: `Hopper ${nextId}`,
    user_name: `grace${nextId}`,
    email: `grace${nextId}@example.com`,
    access_scope: 'account',
    primary_account: { id: ACCOUNT_ID, name: 'Example Corp' },
    status: 'active',
    email_verified: true,
    roles: [{ id: 'role-1', name: 'Account administrator', code: 'account_administrator' }],
    last_sign_in_at: '2026-03-04T10:00:00Z',
    created_at: '2026-01-02T09:00:00Z',
    version: 1,
    ...overrides,
  };
}

/** GET user/{USER_ID}. */
export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: USER_ID,
    first_name: 'Grace',
    last_name: 'Hopper',
    user_name: 'grace',
    email: 'grace@example.com',
    phone: null,
    locale: 'de_DE',
    saml_username: null,
    oidc_username: null,
    has_onelogin_id: false,
    onelogin_url: null,
    aliases: {},
    permissions: [],
    accounts: [{ id: ACCOUNT_ID, active: true, partner_account_id: null, enabled_feature_ids: [] }],
    access_scope: 'account',
    primary_account_id: ACCOUNT_ID,
    primary_account_dta_enabled: false,
    date_format: null,
    applications: [],
    kind: 'person',
    enabled: true,
    email_verified: false,
    status: 'pending',
    roles: [],
    last_sign_in_at: null,
    password_changed_at: null,
    created_at: '2026-01-02T09:00:00Z',
    mfa: { enrolled: false, locked: false },
    default_application: null,
    agreement_accepted_at: null,
    last_mail: null,
    version: 2,
    ...overrides,
  };
}

type Handlers = Parameters<typeof mockApi>[0];

interface UsersApiOptions {
  profile?: Profile;
  permissions?: readonly PermissionName[];
  users?: readonly UserSummary[];
  total?: number;
  extra?: Handlers;
}

/**
 * A signed-in user and the users API answering from fixtures; the address of every GET user,
 * GET user/export and GET role is kept, query string included, for assertions on what was asked.
 */
export function usersApi({
  profile = profileFixture(),
  permissions = SYSTEM_ADMINISTRATOR,
  users = [userSummaryFixture()],
  total = users.length,
  extra = {},
}: UsersApiOptions = {}) {
  const requests: URL[] = [];
  const recorded =
    (handler: Handlers[string]): Handlers[string] =>
    (request) => {
      requests.push(request.url);
      return handler(request);
    };
  const api = mockApi({
    ...signedInHandlers(profile, permissions),
    [`GET ${API}/user`]: recorded(() => json({ items: users, total })),
    [`GET ${API}/role`]: recorded(() =>
      json({
        items: [
          {
            id: 'role-1',
            name: 'Account administrator',
            code: 'account_administrator',
            app_code: 'account_manager',
            account_id: null,
            account_name: null,
            built_in: true,
            status: 'active',
            permissions: [],
            description: '',
            cloned_from: null,
            users_count: 0,
            created_at: '2026-01-02T09:00:00Z',
            version: 1,
            editable: false,
          },
        ],
        total: 1,
      } satisfies RoleList),
    ),
    [`GET ${API}/user/${USER_ID}`]: () => json(userFixture()),
    [`GET ${API}/user/${USER_ID}/applications`]: () =>
      json({
        items: [
          {
            id: 'app-1',
            app_code: 'account_manager',
            app_name: 'Account Manager',
            context: 'account-manager',
            roles: [{ id: 'role-1', name: 'Account administrator', code: 'account_administrator' }],
          },
        ],
        total: 1,
      }),
    ...Object.fromEntries(Object.entries(extra).map(([key, handler]) => [key, recorded(handler)])),
  });
  return { ...api, requests };
}

/** The queries GET `path` was called with, in order. */
export function queriesOf(requests: readonly URL[], path: string): Record<string, string>[] {
  return requests.filter((url) => url.pathname === path).map((url) => Object.fromEntries(url.searchParams));
}

export function findAdministratorsTable() {
  return screen.findByRole('table', { name: 'Administrators' });
}
