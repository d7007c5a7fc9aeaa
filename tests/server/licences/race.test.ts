import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Database } from '../../../server/db/schema.ts';
import { insertAccount } from '../accounts/helpers.ts';
import { call } from '../organizations/requests.ts';
import { type ProcessPair, startProcessPair } from '../server-processes.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { allocate, type LicenceWorld, licenceWorld } from './helpers.ts';

/**
 * Administrators drawing from one pool at once never give more than it holds (decision 022 §2): fifty
 * adds of 1, each to an account of its own, at a partner's pool of 10 leave exactly ten taken, and
 * the totals, the history and the audit trail agree. On the embedded database, on PostgreSQL when
 * TEST_DATABASE_URL names one, and across two server processes on PostgreSQL.
 */

const ATTEMPTS = 50;
const POOL = 10;
const ADD_ONE = { changes: [{ feature: 'certificates', option: 'add', quantity: 1 }] };

/** What the race left: how many children hold one, the history rows and audit events of the children. */
async function aftermath(db: Kysely<Database>, children: readonly string[]) {
  const held = await db
    .selectFrom('licence_allocations')
    .select(['account_id', 'total_allocated'])
    .where('account_id', 'in', children)
    .where('app_code', '=', 'ca_manager')
    .execute();
  const history = await db
    .selectFrom('licence_history')
    .select('account_id')
    .where('account_id', 'in', children)
    .execute();
  const events = await db
    .selectFrom('audit_events')
    .select('resource_id')
    .where('resource_type', '=', 'LICENSE')
    .where('resource_id', 'in', children)
    .execute();
  return {
    total: held.reduce((sum, row) => sum + row.total_allocated, 0),
    holders: held
      .filter((row) => row.total_allocated === 1)
      .map((row) => row.account_id)
      .sort(),
    history: history.map((row) => row.account_id).sort(),
    events: events.map((row) => row.resource_id).sort(),
  };
}

function expectConsistent(statuses: number[], result: Awaited<ReturnType<typeof aftermath>>) {
  expect(statuses.filter((status) => status === 200)).toHaveLength(POOL);
  // The others found the pool spent: a 400 naming the row, never a 5xx.
  expect(statuses.filter((status) => status !== 200).every((status) => status === 400)).toBe(true);
  expect(result.total).toBe(POOL);
  expect(result.holders).toHaveLength(POOL);
  expect(result.history).toEqual(result.holders);
  expect(result.events).toEqual(result.holders);
}

describe(`fifty adds at a pool of ten, ${process.env.TEST_DATABASE_URL ? 'on PostgreSQL' : 'on the embedded database'}`, () => {
  let harness: TestApp;
  let world: LicenceWorld;

  beforeAll(async () => {
    harness = await createTestApp();
    world = await licenceWorld(harness);
  });
  afterAll(() => harness.close());

  it('gives exactly what the pool holds', async () => {
    await allocate(harness, world.system, world.partner.id, 'ca_manager', 'certificates', POOL);
    const children = await Promise.all(
      Array.from({ length: ATTEMPTS }, () => insertAccount(harness, { partnerAccountId: world.partner.id })),
    );
    const statuses = await Promise.all(
      children.map(async (child) => {
        const response = await call(harness, 'PUT', apiPaths.licence.byApp(child, 'ca_manager'), {
          token: world.partner.admin.token,
          body: ADD_ONE,
          headers: { 'If-Match': '"0"' },
        });
        return response.status;
      }),
    );
    expectConsistent(statuses, await aftermath(harness.deps.db, children));
  }, 120_000);
});

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(Boolean(baseUrl))('fifty adds at a pool of ten across two server processes', () => {
  let pair: ProcessPair | undefined;

  beforeAll(async () => {
    pair = await startProcessPair(baseUrl ?? '', 'licences');
  }, 90_000);
  afterAll(() => pair?.close());

  it('gives exactly what the pool holds', async () => {
    if (!pair) throw new Error('No servers.');
    const { db } = pair.database;
    const harness = { deps: { db, now: () => new Date() } } as unknown as TestApp;
    const partner = await insertAccount(harness, { type: 'partner' });
    // The partner's pool is stored as an allocation from the system would store it.
    await db
      .insertInto('licence_allocations')
      .values({ account_id: partner, app_code: 'ca_manager', feature: 'certificates', total_allocated: POOL })
      .execute();
    const children = await Promise.all(
      Array.from({ length: ATTEMPTS }, () => insertAccount(harness, { partnerAccountId: partner })),
    );
    const servers = pair.servers;
    const statuses = await Promise.all(
      children.map(async (child, index) => {
        const response = await fetch(
          `${servers[index % 2]?.url}${apiPaths.licence.byApp(child, 'ca_manager')}`,
          {
            method: 'PUT',
            headers: {
              Authorization: `Bearer ${pair?.token}`,
              'Content-Type': 'application/json',
              'If-Match': '"0"',
            },
            body: JSON.stringify(ADD_ONE),
          },
        );
        return response.status;
      }),
    );
    expectConsistent(statuses, await aftermath(db, children));
  }, 120_000);
});
