import { randomUUID } from 'node:crypto';
import { type AccessScope, PERMISSION_NAMES, type PermissionName } from '../../../contract/permissions.ts';
import { insertUser } from '../../../server/users/repository.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { type Caller, callerWith } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** Fixtures of the users suites; requests go through the organization suites' `call`. */

export interface UserFixture {
  accountId: string;
  accessScope?: AccessScope;
  userName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** Without a password and unverified, the user is pending (invited). */
  pending?: boolean;
  active?: boolean;
  roleIds?: readonly string[];
  createdAt?: Date;
  lastSignInAt?: Date | null;
}

/**
 * Inserts a user as the platform stores one, without a password to hash (these users never sign in);
 * answers its id.
 */
export async function insertTestUser(harness: TestApp, fixture: UserFixture): Promise<string> {
  const userName = fixture.userName ?? `user-${randomUUID().slice(0, 8)}`;
  const id = await insertUser(harness.deps.db, {
    userName,
    firstName: fixture.firstName ?? 'Test',
    lastName: fixture.lastName ?? 'User',
    email: fixture.email ?? `${userName}@example.com`,
    accessScope: fixture.accessScope ?? 'account',
    primaryAccountId: fixture.accountId,
    passwordHash: null,
    roleIds: fixture.roleIds ?? [],
    emailVerified: fixture.pending !== true,
    now: fixture.createdAt ?? harness.deps.now(),
  });
  await harness.deps.db
    .updateTable('users')
    .set({ active: fixture.active ?? true, last_sign_in_at: fixture.lastSignInAt ?? null })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A custom role of `accountId` granting `permissions`; answers its id. */
export async function insertCustomRole(
  harness: TestApp,
  accountId: string,
  permissions: readonly PermissionName[] = ['VIEW_USER'],
  name = `Role ${randomUUID().slice(0, 8)}`,
): Promise<string> {
  const id = randomUUID();
  await harness.deps.db
    .insertInto('roles')
    .values({
      id,
      code: null,
      name,
      app_code: 'account_manager',
      account_id: accountId,
      permissions: JSON.stringify(permissions),
      created_at: harness.deps.now(),
    })
    .execute();
  return id;
}

/**
 * The callers of the users and roles authorization matrices:
 * - system: the built-in system administrator;
 * - partner: the partner administrator of partner account P;
 * - account admin: the built-in account administrator of account A under P;
 * - account, all permissions: account scope in A holding every permission, so scope alone limits it;
 * - auditor: the built-in read-only auditor of A;
 * - no user permission: account scope in A with view account only, so reach is found and 403 follows.
 */
export const CALLERS = [
  'system',
  'partner',
  'account admin',
  'account, all permissions',
  'auditor',
  'no user permission',
] as const;
export type CallerKind = (typeof CALLERS)[number];

/** Signs in every kind of caller into `callers`; answers account A (under P) and B (under another partner Q). */
export async function matrixCallers(
  harness: TestApp,
  callers: Record<CallerKind, Caller>,
): Promise<{ accountA: string; accountB: string }> {
  const partnerP = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  const accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partnerP });
  const accountB = await insertAccount(harness, { name: 'Account B', partnerAccountId: partnerQ });
  callers.system = await signedInUser(harness, { accessScope: 'system' });
  callers.partner = await signedInUser(harness, { accessScope: 'partner', accountId: partnerP });
  callers['account admin'] = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
  callers['account, all permissions'] = await callerWith(harness, {
    accessScope: 'account',
    accountId: accountA,
    permissions: PERMISSION_NAMES,
  });
  callers.auditor = await signedInUser(harness, {
    accessScope: 'account',
    accountId: accountA,
    roles: ['read_only_auditor'],
  });
  callers['no user permission'] = await callerWith(harness, {
    accessScope: 'account',
    accountId: accountA,
    permissions: ['VIEW_ACCOUNT'],
  });
  return { accountA, accountB };
}
