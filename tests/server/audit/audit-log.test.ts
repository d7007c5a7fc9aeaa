import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS } from '../../../contract/audit-csv.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { AuditEvent, AuditEventList } from '../../../contract/schemas/audit-log.ts';
import { signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { recordEvents, updates } from './helpers.ts';

/** GET audit-log, audit-log/{id} and the CSV export: reach by scope, filters, paging, bad input. */

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
let accountA: string;
let accountB: string;

beforeAll(async () => {
  harness = await createTestApp();
  ({ callers, accountA, accountB } = await matrixCallers(harness));
  await recordEvents(harness, [
    ...updates(25, accountA, 'actor-a'),
    ...updates(3, accountB, 'actor-b'),
    {
      action: 'LOGIN_ERROR',
      status: 'failure',
      resourceType: 'BASIC_AUTH',
      actorName: '=cmd|calc',
      details: { reason: 'unknownUser' },
    },
    {
      action: 'DELETE',
      status: 'success',
      resourceType: 'USER',
      resourceId: 'user-9',
      accountId: accountA,
      actorId: 'actor-a',
      details: { user_name: 'gone' },
      occurredAt: new Date('2020-01-01T00:00:00Z'),
    },
  ]);
});
afterAll(() => harness.close());

async function list(caller: Caller, query = ''): Promise<AuditEventList> {
  const response = await call(harness, 'GET', `${apiPaths.auditLog.list}${query}`, { token: caller.token });
  expect(response.status).toBe(200);
  return (await response.json()) as AuditEventList;
}

async function all(caller: Caller, query = ''): Promise<AuditEvent[]> {
  return (await list(caller, `?limit=99999${query}`)).items;
}

describe('GET audit-log', () => {
  it('answers a page of 20 with the total, newest first', async () => {
    const page = await list(callers.system);
    expect(page.items).toHaveLength(20);
    expect(page.total).toBeGreaterThan(30);
    const times = page.items.map((event) => event.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    const asc = await list(callers.system, '?sort=timestamp:asc&limit=1');
    expect(asc.items[0]?.occurred_at).toBe('2020-01-01T00:00:00.000Z');
  });

  it('shows each scope the events of the accounts it reaches', async () => {
    const everything = await all(callers.system);
    expect(everything.some((event) => event.account_id === null)).toBe(true);
    expect(everything.some((event) => event.account_id === accountB)).toBe(true);
    for (const caller of ['partner', 'account admin', 'auditor'] as const) {
      const seen = await all(callers[caller]);
      expect(seen.length).toBeGreaterThan(25);
      expect(seen.every((event) => event.account_id !== null && event.account_id !== accountB)).toBe(true);
    }
    const admin = await all(callers['account admin']);
    expect(admin.every((event) => event.account_id === accountA)).toBe(true);
    expect(admin[0]?.account_name).toBe('Account A');
  });

  it('filters by action, status, resource type, user, account and time', async () => {
    const deletes = await all(callers.system, '&action=DELETE&resource_type=USER');
    expect(deletes.map((event) => event.resource_id)).toContain('user-9');
    expect(deletes.every((event) => event.action === 'DELETE' && event.resource_type === 'USER')).toBe(true);
    const failures = await all(callers.system, '&status=failure');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((event) => event.status === 'failure')).toBe(true);
    const byB = await all(callers.system, '&user=actor-b');
    expect(byB).toHaveLength(3);
    expect(await all(callers.system, `&account_id=${accountB}`)).toHaveLength(3);
    const old = await all(callers.system, '&from=2019-12-31T23:00:00-01:00&to=2020-01-01T00:00:00Z');
    expect(old.map((event) => event.resource_id)).toEqual(['user-9']);
    const update = (await all(callers.system, '&action=UPDATE&user=actor-a'))[0];
    expect(update).toMatchObject({
      details: { changes: { name: { from: expect.any(String), to: expect.any(String) } } },
      ip_address: '192.0.2.1',
      user_agent: 'Tests/1.0',
    });
  });

  it('names the field of bad input', async () => {
    for (const [query, field, code] of [
      ['from=yesterday', 'from', 'invalidValue'],
      ['from=2026-02-31T00:00:00Z', 'from', 'invalidValue'],
      ['from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z', 'to', 'endDateBeforeStartDate'],
      ['action=HACK', 'action', 'invalidValue'],
      ['status=maybe', 'status', 'invalidValue'],
      ['resource_type=x', 'resource_type', 'invalidValue'],
      ['limit=0', 'limit', 'invalidNumber'],
      ['offset=-1', 'offset', 'invalidNumber'],
      ['sort=seq:asc', 'sort', 'invalidSort'],
    ] as const) {
      const response = await call(harness, 'GET', `${apiPaths.auditLog.list}?${query}`, {
        token: callers.system.token,
      });
      expect(response.status, query).toBe(400);
      expect(await errorOf(response), query).toMatchObject({ field, code });
    }
  });

  it('answers 404 for an account out of reach and 403 without the permission', async () => {
    const foreign = await call(harness, 'GET', `${apiPaths.auditLog.list}?account_id=${accountB}`, {
      token: callers['account admin'].token,
    });
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toMatchObject({ field: 'account_id', code: 'notFound' });
    const forbidden = await call(harness, 'GET', apiPaths.auditLog.list, {
      token: callers['no user permission'].token,
    });
    expect(forbidden.status).toBe(403);
  });
});

describe('GET audit-log/{id}', () => {
  it('answers an event within reach and 404 beyond it', async () => {
    const [ofB] = await all(callers.system, `&account_id=${accountB}`);
    const [ofA] = await all(callers.system, `&account_id=${accountA}`);
    if (!ofA || !ofB) throw new Error('no events');
    const own = await call(harness, 'GET', apiPaths.auditLog.byId(ofA.id), { token: callers.auditor.token });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual(ofA);
    for (const path of [
      apiPaths.auditLog.byId(ofB.id),
      apiPaths.auditLog.verify(ofB.id),
      apiPaths.auditLog.byId('nope'),
    ]) {
      const response = await call(harness, 'GET', path, { token: callers.auditor.token });
      expect(response.status, path).toBe(404);
    }
  });
});

describe('GET audit-log/export', () => {
  it('writes the filtered events as CSV with formula cells defused', async () => {
    const response = await call(harness, 'GET', `${apiPaths.auditLog.export}?format=csv&status=failure`, {
      token: callers.system.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/csv');
    const text = await response.text();
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(rows.length).toBeGreaterThan(0);
    expect(text).toContain(",'=cmd|calc,");
  });

  it('refuses an unknown format, naming it', async () => {
    const response = await call(harness, 'GET', `${apiPaths.auditLog.export}?format=xml`, {
      token: callers.system.token,
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'format' });
  });

  it('marks an account administrator’s export as filtered', async () => {
    const caller = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
    const response = await call(harness, 'GET', `${apiPaths.auditLog.export}?format=jsonl`, {
      token: caller.token,
    });
    const lines = (await response.text()).trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ proof: { filtered: true } });
  });
});
