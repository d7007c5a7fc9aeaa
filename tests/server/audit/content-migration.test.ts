import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { auditEventHash, GENESIS_HASH } from '../../../server/audit/event-hash.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import type { OpenDatabase } from '../../../server/db/connection.ts';
import { down, up } from '../../../server/db/migrations/20261227T0900-audit-event-content.ts';
import { migrateToLatest } from '../../../server/db/migrator.ts';
import { openTestDatabase } from '../test-app.ts';

/**
 * The migration that stores each event's canonical content: events written before it, as ordinary
 * columns, keep their hashes and their values, and one edited before it still fails its hash after it.
 */

let database: OpenDatabase;

beforeEach(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db);
  // The trail as it was before the migration: every field an ordinary column.
  await down(database.db as never);
});
afterEach(() => database.close());

async function insertOldStyle(count: number): Promise<string[]> {
  let previous = GENESIS_HASH;
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const fields = {
      id: randomUUID(),
      occurred_at: new Date(Date.UTC(2026, 10, 1, 8, 0, index, 250)),
      action: 'UPDATE',
      status: 'success',
      resource_type: 'ACCOUNT',
      resource_id: `account-${index}`,
      account_id: null,
      actor_id: 'actor-1',
      actor_name: 'Ada Admin',
      ip_address: '192.0.2.1',
      user_agent: index === 0 ? null : 'Mozilla/5.0',
      details: { changes: { name: { from: `Old ${index}`, to: `New ${index}` } }, note: 'é ✓' },
      prev_hash: previous,
    };
    const hash = auditEventHash(fields);
    await sql`
      insert into audit_events (id, occurred_at, action, status, resource_type, resource_id, account_id,
        actor_id, actor_name, ip_address, user_agent, details, prev_hash, hash)
      values (${fields.id}, ${fields.occurred_at}, ${fields.action}, ${fields.status}, ${fields.resource_type},
        ${fields.resource_id}, ${fields.account_id}, ${fields.actor_id}, ${fields.actor_name},
        ${fields.ip_address}, ${fields.user_agent}, ${JSON.stringify(fields.details)}, ${fields.prev_hash},
        ${hash})`.execute(database.db);
    previous = hash;
    ids.push(fields.id);
  }
  return ids;
}

it('keeps the hashes and values of the events stored before it', async () => {
  const ids = await insertOldStyle(5);
  await up(database.db as never);
  expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, events: 5 });
  const rows = await database.db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
  expect(rows.map((row) => row.id)).toEqual(ids);
  expect(rows[0]).toMatchObject({
    occurred_at: new Date(Date.UTC(2026, 10, 1, 8, 0, 0, 250)),
    resource_id: 'account-0',
    account_id: null,
    user_agent: null,
    details: { changes: { name: { from: 'Old 0', to: 'New 0' } }, note: 'é ✓' },
  });
  expect(rows[1]?.user_agent).toBe('Mozilla/5.0');
});

it('still names an event edited before it', async () => {
  await insertOldStyle(4);
  await sql`update audit_events set actor_name = 'Someone Else' where resource_id = 'account-2'`.execute(
    database.db,
  );
  await up(database.db as never);
  const edited = await database.db
    .selectFrom('audit_events')
    .select('seq')
    .where('resource_id', '=', 'account-2')
    .executeTakeFirstOrThrow();
  expect(await verifyAuditChain(database.db)).toMatchObject({
    ok: false,
    firstBadSeq: edited.seq,
    reason: 'altered',
  });
});
