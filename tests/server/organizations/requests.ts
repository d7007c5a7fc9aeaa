import { randomUUID } from 'node:crypto';
import type { AccessScope, PermissionName } from '../../../contract/permissions.ts';
import type { ContactFieldsInput, OrganizationFieldsInput } from '../../../contract/schemas/organizations.ts';
import { signIn } from '../identity/requests.ts';
import type { TestApp, TestUser } from '../test-app.ts';

/** Requests of the organization suites: any method, a JSON body when given, the caller's token. */
export async function call(
  harness: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const hasBody = options.body !== undefined;
  return harness.app.request(path, {
    method,
    headers: {
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: hasBody ? JSON.stringify(options.body) : undefined,
  });
}

export interface Caller extends TestUser {
  token: string;
}

/**
 * A signed-in user holding exactly `permissions`, through a custom role of its own, so a test
 * states which permissions matter instead of inheriting a built-in role's.
 */
export async function callerWith(
  harness: TestApp,
  options: { accessScope: AccessScope; accountId?: string; permissions: readonly PermissionName[] },
): Promise<Caller> {
  const user = await harness.createUser({
    accessScope: options.accessScope,
    accountId: options.accountId,
    roles: [],
  });
  const roleId = randomUUID();
  await harness.deps.db
    .insertInto('roles')
    .values({
      id: roleId,
      code: null,
      name: `Role ${roleId.slice(0, 8)}`,
      app_code: 'account_manager',
      account_id: user.accountId,
      permissions: JSON.stringify(options.permissions),
      created_at: harness.deps.now(),
    })
    .execute();
  await harness.deps.db.insertInto('user_roles').values({ user_id: user.id, role_id: roleId }).execute();
  return { ...user, token: (await signIn(harness, user)).accessToken };
}

/** A new account managed by the partner whose primary account is `partnerAccountId`. */
export async function createChildAccount(harness: TestApp, partnerAccountId: string): Promise<string> {
  const id = await harness.createAccount();
  await harness.deps.db
    .updateTable('accounts')
    .set({ partner_account_id: partnerAccountId })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Adds the user to an account besides its primary one. */
export async function addToAccount(harness: TestApp, userId: string, accountId: string): Promise<void> {
  await harness.deps.db
    .insertInto('user_accounts')
    .values({ user_id: userId, account_id: accountId })
    .execute();
}

/** Valid organization fields, with a name of their own unless given. */
export function organizationFields(
  overrides: Partial<OrganizationFieldsInput> = {},
): OrganizationFieldsInput {
  return {
    name: `Organization ${randomUUID().slice(0, 8)}`,
    address: '1 Harbour Street',
    address2: 'Floor 3',
    city: 'Lisbon',
    state: 'Lisboa',
    zip_code: '1100-148',
    country: 'PT',
    phone: '+351 21 000 0000',
    ...overrides,
  };
}

export function contactFields(overrides: Partial<ContactFieldsInput> = {}): ContactFieldsInput {
  return {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace.hopper@example.com',
    phone: '+1 555 0100',
    title: 'Security officer',
    type: 'technical',
    ...overrides,
  };
}
