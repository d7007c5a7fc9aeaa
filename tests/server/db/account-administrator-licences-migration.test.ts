import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../contract/permissions.ts';
import { up } from '../../../server/db/migrations/20270101T1100-account-administrator-sees-its-licences.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** Built-in roles are seeded once, so the one a platform already stores is changed by a migration. */
describe('migration 20270101T1100: the Account administrator sees its licences', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  const permissionsOf = async (id: string) =>
    (
      await harness.deps.db
        .selectFrom('roles')
        .select('permissions')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).permissions as string[];

  it('adds the applications’ view-licence permissions to the stored role, once, and to no other', async () => {
    const roles = await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
    const before = BUILT_IN_ROLES.account_administrator.permissions.filter(
      (name) => !/^VIEW_[A-Z]+_LICENSE$/.test(name),
    );
    await harness.deps.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(before) })
      .where('id', '=', roles.account_administrator)
      .execute();
    const auditor = await permissionsOf(roles.read_only_auditor);

    // Migrations take the database untyped: they are written against the schema of their day.
    const untyped = harness.deps.db as unknown as Kysely<unknown>;
    await up(untyped);
    await up(untyped);

    const after = await permissionsOf(roles.account_administrator);
    expect([...after].sort()).toEqual([...BUILT_IN_ROLES.account_administrator.permissions].sort());
    expect(await permissionsOf(roles.read_only_auditor)).toEqual(auditor);
  });
});
