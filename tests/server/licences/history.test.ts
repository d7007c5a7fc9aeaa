import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { LicenceHistoryItem } from '../../../contract/schemas/licences.ts';
import { call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { allocate, changeLicence, type LicenceWorld, licenceWorld } from './helpers.ts';

/**
 * The licence history (J-37, J-41 … J-43; decision 022 §2, §3): a row per changed type written with
 * the change and its audit event, paged newest first, dated in the asked time zone, with the actor's
 * name for system scope only.
 */

let harness: TestApp;
let world: LicenceWorld;

beforeAll(async () => {
  harness = await createTestApp();
  world = await licenceWorld(harness);
  await allocate(harness, world.system, world.partner.id, 'ca_manager', 'certificates', 80);
  for (let index = 1; index <= 12; index += 1) {
    await allocate(harness, world.partner.admin, world.partner.child, 'ca_manager', 'certificates', index);
  }
  // The twelve changes of the child's Private CA licence, by the partner, an hour apart: the last at
  // 23:30 UTC on 11 March, already 12 March in Tokyo and still 11 March in New York.
  await harness.deps.db
    .updateTable('licence_history')
    .set((eb) => ({
      at: sql<Date>`timestamptz '2026-03-11T12:30:00Z' + (${eb.ref('quantity')} - 1) * interval '1 hour'`,
    }))
    .where('account_id', '=', world.partner.child)
    .execute();
});
afterAll(() => harness.close());

async function history(token: string, query = '', details = false) {
  const path = details
    ? apiPaths.licence.historyDetails(world.partner.child)
    : apiPaths.licence.history(world.partner.child);
  const response = await call(harness, 'GET', `${path}${query}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as { items: LicenceHistoryItem[]; total: number };
}

describe('the licence history of an account', () => {
  it('answers the ten newest first, and the total', async () => {
    const page = await history(world.system.token);
    expect(page.total).toBe(12);
    expect(page.items.map((item) => item.quantity)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(page.items[0]).toMatchObject({
      app_code: 'ca_manager',
      feature: 'certificates',
      quantity: 12,
      limit: 78,
      timestamp: '2026-03-11T23:30:00.000Z',
    });
  });

  it('pages with limit and offset, and sorts oldest first when asked', async () => {
    const rest = await history(world.system.token, '?limit=10&offset=10&sort=timestamp:desc');
    expect(rest.items.map((item) => item.quantity)).toEqual([2, 1]);
    const oldest = await history(world.system.token, '?limit=3&sort=timestamp:asc');
    expect(oldest.items.map((item) => item.limit)).toEqual([1, 3, 6]);
  });

  it('dates each item in the asked time zone, UTC without one', async () => {
    const dateOfNewest = async (query: string) => (await history(world.system.token, query)).items[0]?.date;
    expect(await dateOfNewest('')).toBe('2026-03-11');
    expect(await dateOfNewest('?timezone=Asia%2FTokyo')).toBe('2026-03-12');
    expect(await dateOfNewest('?timezone=America%2FNew_York')).toBe('2026-03-11');
  });

  it("names the actor to system scope only, the partner's own changes included", async () => {
    const bySystem = await history(world.system.token);
    expect(bySystem.items.every((item) => item.actor === world.partner.admin.userName)).toBe(true);
    const byPartner = await history(world.partner.admin.token);
    expect(byPartner.items.every((item) => item.actor === null)).toBe(true);
  });

  it('answers every row oldest first for the CSV, in the same zone', async () => {
    const all = await history(world.system.token, '?timezone=Asia%2FTokyo', true);
    expect(all.total).toBe(12);
    expect(all.items.map((item) => item.quantity)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(all.items.at(-1)?.date).toBe('2026-03-12');
  });

  it('shows only the applications whose licences the caller may view', async () => {
    const viewer = await callerWith(harness, { accessScope: 'system', permissions: ['VIEW_DSM_LICENSE'] });
    const page = await history(viewer.token);
    expect(page).toEqual({ items: [], total: 0, total_is_lower_bound: false });
  });
});

describe('what a change records', () => {
  it('writes a history row per changed type and one audit event, signed changes and new totals', async () => {
    const { system, standard } = world;
    await allocate(harness, system, standard, 'document_signing_manager', 'document_signatures', 8);
    await allocate(harness, system, standard, 'document_signing_manager', 'hardware_key_pair_units', 3);
    const response = await changeLicence(harness, system, standard, 'document_signing_manager', [
      { feature: 'document_signatures', option: 'reset', quantity: 2 },
      { feature: 'hardware_key_pair_units', option: 'subtract', quantity: 1 },
    ]);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { event: unknown }).event).toEqual({
      features: [
        { name: 'document_signatures', quantity: -6, updated_limit: 2 },
        { name: 'hardware_key_pair_units', quantity: -1, updated_limit: 2 },
      ],
    });
    const rows = await harness.deps.db
      .selectFrom('licence_history')
      .select(['feature', 'quantity', 'new_limit', 'actor_id'])
      .where('account_id', '=', standard)
      .orderBy('at')
      .orderBy('feature')
      .execute();
    expect(rows.slice(-2)).toEqual([
      { feature: 'document_signatures', quantity: -6, new_limit: 2, actor_id: system.id },
      { feature: 'hardware_key_pair_units', quantity: -1, new_limit: 2, actor_id: system.id },
    ]);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'resource_type', 'resource_id', 'account_id', 'details'])
      .where('resource_type', '=', 'LICENSE')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toEqual({
      action: 'UPDATE',
      resource_type: 'LICENSE',
      resource_id: standard,
      account_id: standard,
      details: {
        changes: {
          'document_signing_manager.document_signatures': { from: 8, to: 2 },
          'document_signing_manager.hardware_key_pair_units': { from: 3, to: 2 },
        },
      },
    });
  });
});
