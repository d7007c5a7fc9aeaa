import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { AuditVerification } from '../../../contract/schemas/audit-log.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { organizationFields } from '../organizations/requests.ts';
import { type ProcessPair, startProcessPair } from '../server-processes.ts';

/**
 * Two real server processes on one PostgreSQL database writing at once keep one audit chain: the
 * advisory lock of `record.ts` orders the writers of every process, so no two events name the same
 * predecessor and the chain verifies through either process. Each process registers its checkpoint key.
 */

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(Boolean(baseUrl))('the audit chain across two server processes', () => {
  let pair: ProcessPair | undefined;

  beforeAll(async () => {
    pair = await startProcessPair(baseUrl ?? '', 'audit');
  }, 90_000);
  afterAll(() => pair?.close());

  it('stays one chain under concurrent writers', async () => {
    if (!pair) throw new Error('No processes.');
    const { servers, token, accountId, database } = pair;
    const before = await database.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const server = servers[index % 2];
        const response = await fetch(`${server?.url}${apiPaths.organizations.list}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...organizationFields(), account_id: accountId }),
        });
        return response.status;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 40 }, () => 201));
    const rows = await database.db
      .selectFrom('audit_events')
      .select(['prev_hash', 'hash'])
      .orderBy('seq')
      .execute();
    expect(rows.length).toBe(Number(before.count) + 40);
    expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length);
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, events: rows.length });

    const [last] = await database.db
      .selectFrom('audit_events')
      .select('id')
      .orderBy('seq', 'desc')
      .limit(1)
      .execute();
    for (const server of servers) {
      const response = await fetch(`${server.url}${apiPaths.auditLog.verify(last?.id ?? '')}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(((await response.json()) as AuditVerification).chain_ok).toBe(true);
    }
    const keys = await database.db.selectFrom('audit_checkpoint_keys').select('key_id').execute();
    expect(keys).toHaveLength(2);
  }, 60_000);
});
