import { randomUUID } from 'node:crypto';
import type { AccessScope } from '../../../contract/permissions.ts';
import { insertApiToken } from '../../../server/api-tokens/repository.ts';
import { insertServiceUser } from '../../../server/service-users/repository.ts';
import type { TestApp } from '../test-app.ts';

/** Fixtures of the service-user suites. */

export interface ServiceUserFixture {
  accountId: string;
  createdBy: string;
  accessScope?: AccessScope;
  name?: string;
  endDate?: string | null;
  roleIds?: readonly string[];
}

/** Inserts a service user as the platform stores one; answers its id and name. */
export async function insertTestServiceUser(
  harness: TestApp,
  fixture: ServiceUserFixture,
): Promise<{ id: string; name: string }> {
  const name = fixture.name ?? `svc-${randomUUID().slice(0, 8)}`;
  const id = await insertServiceUser(harness.deps.db, {
    name,
    description: 'Nightly export',
    email: `${name}@example.com`,
    endDate: fixture.endDate ?? null,
    accessScope: fixture.accessScope ?? 'account',
    primaryAccountId: fixture.accountId,
    accountIds: [],
    roleIds: fixture.roleIds ?? [],
    createdBy: fixture.createdBy,
    now: harness.deps.now(),
  });
  return { id, name };
}

/** A working token of `userId`; answers its id and value. */
export async function tokenFor(harness: TestApp, userId: string): Promise<{ id: string; value: string }> {
  const token = await insertApiToken(
    harness.deps.db,
    { userId, name: `Token ${randomUUID().slice(0, 8)}`, endDate: null, createdBy: userId },
    harness.deps.now(),
  );
  return { id: token.id, value: token.value };
}
