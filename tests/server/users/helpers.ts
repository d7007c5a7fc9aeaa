import { randomUUID } from 'node:crypto';
import type { AccessScope, PermissionName } from '../../../contract/permissions.ts';
import { insertUser } from '../../../server/users/repository.ts';
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
