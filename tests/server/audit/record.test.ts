import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditEvent } from '../../../server/audit/record.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

describe('the audit trail', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it('links each event to the one before, also when written concurrently', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        harness.deps.db.transaction().execute((trx) =>
          recordAuditEvent(trx, {
            action: 'UPDATE',
            status: 'success',
            resourceType: 'ACCOUNT',
            resourceId: `account-${index}`,
            details: { changed: ['display_name'], index },
          }),
        ),
      ),
    );
    const rows = await harness.deps.db
      .selectFrom('audit_events')
      .select(['prev_hash', 'hash'])
      .orderBy('seq')
      .execute();
    expect(rows).toHaveLength(8);
    rows.slice(1).forEach((row, index) => {
      expect(row.prev_hash).toBe(rows[index]?.hash);
    });
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({ ok: true, events: 8 });
  });

  it('rolls the event back with the change it audits', async () => {
    await expect(
      harness.deps.db.transaction().execute(async (trx) => {
        await recordAuditEvent(trx, { action: 'DELETE', status: 'success', resourceType: 'USER' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({ ok: true, events: 8 });
  });

  it('refuses details that look like secrets', async () => {
    await expect(
      recordAuditEvent(harness.deps.db, {
        action: 'UPDATE_PASSWORD',
        status: 'success',
        resourceType: 'USER',
        details: { user: { password: 'hunter2' } },
      }),
    ).rejects.toThrow('details.user.password');
  });

  it('detects an edited event', async () => {
    const target = await harness.deps.db
      .selectFrom('audit_events')
      .select(['seq', 'content'])
      .where('resource_id', '=', 'account-3')
      .executeTakeFirstOrThrow();
    await harness.deps.db
      .updateTable('audit_events')
      .set({ content: target.content.replace('"status":"success"', '"status":"failure"') })
      .where('seq', '=', target.seq)
      .execute();
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({
      ok: false,
      firstBadSeq: target.seq,
      reason: 'altered',
    });
  });

  it('detects a removed event', async () => {
    const rows = await harness.deps.db.selectFrom('audit_events').select('seq').orderBy('seq').execute();
    const [first, second] = rows;
    await harness.deps.db
      .deleteFrom('audit_events')
      .where('seq', '=', first?.seq ?? 0)
      .execute();
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({
      ok: false,
      firstBadSeq: second?.seq,
      reason: 'unlinked',
    });
  });
});
