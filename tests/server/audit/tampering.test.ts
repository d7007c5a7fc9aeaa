import { execFile } from 'node:child_process';
import { sign } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateCheckpointSigner, registerCheckpointKey } from '../../../server/audit/checkpoints.ts';
import { checkpointMessage } from '../../../server/audit/event-hash.ts';
import { checkAuditExport } from '../../../server/audit/export-check.ts';
import { signedInUser } from '../accounts/helpers.ts';
import type { Caller } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  chainRows,
  checkpointsFile,
  exportFile,
  recordEvents,
  testSigner,
  updates,
  verifyEvent,
} from './helpers.ts';

/**
 * Tampering with the trail shows, both through GET audit-log/{id}/verify and offline through the
 * JSON Lines export and `npm run audit:verify`: an edited row, a deleted one, two swapped, the tail
 * truncated (against a checkpoint kept apart), a forged checkpoint.
 */

let harness: TestApp;
let system: Caller;
let signer: Awaited<ReturnType<typeof testSigner>>;

beforeEach(async () => {
  harness = await createTestApp();
  system = await signedInUser(harness, { accessScope: 'system' });
  signer = await testSigner(harness);
  await recordEvents(harness, updates(6, system.accountId));
  await signer.sign();
  await recordEvents(harness, updates(2, system.accountId));
});
afterEach(() => harness.close());

const runScript = promisify(execFile);

async function script(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await runScript(process.execPath, [
      '--import',
      'tsx',
      path.resolve('scripts/audit-verify.ts'),
      ...args,
    ]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, output: failed.stderr };
  }
}

describe('an intact trail', () => {
  it('verifies through the API, offline, and with the script', async () => {
    const rows = await chainRows(harness);
    const first = rows[0];
    if (!first) throw new Error('no events');
    const verification = await verifyEvent(harness, system, first.id);
    expect(verification).toMatchObject({ intact: true, event_ok: true, chain_ok: true, checkpoint_ok: true });
    expect(verification.checkpoint?.seq).toBeGreaterThanOrEqual(first.seq);
    const kept = await checkpointsFile(harness, system);
    const file = await exportFile(harness, system);
    expect(await checkAuditExport(file, kept)).toMatchObject({ ok: true, events: rows.length, linked: true });
    const run = await script(file, kept);
    expect(run).toMatchObject({ code: 0 });
    expect(run.output).toMatch(new RegExp(`^OK: ${rows.length} events`));
  });

  it('keeps the hashes of events stored before the User-Agent was kept', async () => {
    await recordEvents(
      harness,
      updates(1, null).map((event) => ({ ...event, userAgent: null })),
    );
    expect(await checkAuditExport(await exportFile(harness, system))).toMatchObject({ ok: true });
  });
});

describe('a tampered trail', () => {
  it('names an edited event', async () => {
    const rows = await chainRows(harness);
    const target = rows[3];
    if (!target) throw new Error('no events');
    // The columns are generated from the content: only the content can be edited.
    await expect(
      harness.deps.db
        .updateTable('audit_events')
        .set({ actor_name: sql`'Someone Else'` } as never)
        .where('seq', '=', target.seq)
        .execute(),
    ).rejects.toThrow(/can only be updated to DEFAULT/);
    await harness.deps.db
      .updateTable('audit_events')
      .set({
        content: target.content.replace(`"actor_name":"${target.actor_name}"`, '"actor_name":"Someone Else"'),
      })
      .where('seq', '=', target.seq)
      .execute();
    const edited = await harness.deps.db
      .selectFrom('audit_events')
      .select('actor_name')
      .where('seq', '=', target.seq)
      .executeTakeFirstOrThrow();
    expect(edited.actor_name).toBe('Someone Else');
    const verification = await verifyEvent(harness, system, target.id);
    expect(verification).toMatchObject({
      intact: false,
      event_ok: false,
      chain_ok: false,
      broken_at: { seq: target.seq, id: target.id, reason: 'altered' },
    });
    const file = await exportFile(harness, system);
    expect(await checkAuditExport(file)).toMatchObject({ ok: false, seq: target.seq, id: target.id });
    const run = await script(file);
    expect(run.code).toBe(1);
    expect(run.output).toContain(`seq ${target.seq}`);
    expect(run.output).toContain('altered');
  });

  it('names the event after a deleted one', async () => {
    const rows = await chainRows(harness);
    const [deleted, next, last] = [rows[2], rows[3], rows.at(-1)];
    if (!deleted || !next || !last) throw new Error('no events');
    await harness.deps.db.deleteFrom('audit_events').where('seq', '=', deleted.seq).execute();
    expect(await verifyEvent(harness, system, last.id)).toMatchObject({
      intact: false,
      event_ok: true,
      chain_ok: false,
      broken_at: { seq: next.seq, reason: 'unlinked' },
    });
    expect(await checkAuditExport(await exportFile(harness, system))).toMatchObject({
      ok: false,
      seq: next.seq,
    });
  });

  it('names two swapped events', async () => {
    const rows = await chainRows(harness);
    const [a, b] = [rows[1], rows[2]];
    if (!a || !b) throw new Error('no events');
    // Each row takes the other's content and hashes; `seq`, the chain's order, stays.
    const stored = ({ content, prev_hash, hash }: typeof a) => ({ content, prev_hash, hash });
    await harness.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('audit_events')
        .set({ content: a.content.replace(a.id, 'swapping'), hash: 'swapping' })
        .where('seq', '=', a.seq)
        .execute();
      await trx.updateTable('audit_events').set(stored(a)).where('seq', '=', b.seq).execute();
      await trx.updateTable('audit_events').set(stored(b)).where('seq', '=', a.seq).execute();
    });
    expect(await verifyEvent(harness, system, a.id)).toMatchObject({
      intact: false,
      chain_ok: false,
      broken_at: { seq: a.seq, reason: 'unlinked' },
    });
    expect(await checkAuditExport(await exportFile(harness, system))).toMatchObject({
      ok: false,
      seq: a.seq,
    });
  });

  it('notices the tail truncated below a checkpoint', async () => {
    await signer.sign();
    const kept = await checkpointsFile(harness, system);
    const rows = await chainRows(harness);
    const [early, cut] = [rows[1], rows.at(-3)];
    if (!early || !cut) throw new Error('no events');
    await harness.deps.db.deleteFrom('audit_events').where('seq', '>', cut.seq).execute();
    expect(await verifyEvent(harness, system, early.id)).toMatchObject({
      intact: false,
      event_ok: true,
      chain_ok: true,
      checkpoint_ok: false,
      broken_at: { seq: rows.at(-1)?.seq, id: null, reason: 'missing' },
    });
    const file = await exportFile(harness, system);
    // The export alone looks whole: its proof is the newest checkpoint at or before its end.
    expect(await checkAuditExport(file)).toMatchObject({ ok: true });
    const check = await checkAuditExport(file, kept);
    expect(check).toMatchObject({ ok: false });
    expect(check.ok || check.problem).toContain('truncated');
    expect((await script(file, kept)).code).toBe(1);
  });

  it('refuses a forged checkpoint', async () => {
    const rows = await chainRows(harness);
    const [first, last] = [rows[0], rows.at(-1)];
    if (!first || !last) throw new Error('no events');
    // Signed by a key the platform never registered.
    const forger = generateCheckpointSigner();
    const fields = {
      seq: last.seq,
      head_hash: last.hash,
      signed_at: new Date().toISOString(),
      key_id: forger.keyId,
    };
    await harness.deps.db
      .insertInto('audit_checkpoint_keys')
      .values({
        key_id: forger.keyId,
        public_key_pem: generateCheckpointSigner().publicKeyPem,
        created_at: new Date(),
      })
      .execute();
    await harness.deps.db
      .insertInto('audit_checkpoints')
      .values({
        ...fields,
        signed_at: new Date(fields.signed_at),
        signature: sign(null, checkpointMessage(fields), forger.privateKey).toString('base64'),
      })
      .execute();
    expect(await verifyEvent(harness, system, first.id)).toMatchObject({
      intact: false,
      checkpoint_ok: false,
    });
  });

  it('refuses a kept checkpoint or an export proof edited by hand', async () => {
    const kept = await checkpointsFile(harness, system);
    const list = JSON.parse(await readFile(kept, 'utf8')) as { items: { head_hash: string }[] };
    const edited = path.join(harness.dataDir, 'edited-checkpoints.json');
    const [newest] = list.items;
    if (!newest) throw new Error('no checkpoint');
    newest.head_hash = 'f'.repeat(64);
    await writeFile(edited, JSON.stringify(list));
    const file = await exportFile(harness, system);
    expect(await checkAuditExport(file, edited)).toMatchObject({ ok: false });
    expect(await checkAuditExport(file, kept)).toMatchObject({ ok: true });

    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const proof = JSON.parse(lines.at(-1) ?? '{}') as { proof: { checkpoint: { seq: number } } };
    proof.proof.checkpoint.seq += 1;
    await writeFile(file, `${[...lines.slice(0, -1), JSON.stringify(proof)].join('\n')}\n`);
    expect(await checkAuditExport(file)).toMatchObject({ ok: false });
  });

  it('refuses an event edited in the exported file', async () => {
    const file = await exportFile(harness, system);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const event = JSON.parse(lines[2] ?? '{}') as { ip_address: string; seq: number };
    event.ip_address = '198.51.100.7';
    lines[2] = JSON.stringify(event);
    await writeFile(file, `${lines.join('\n')}\n`);
    expect(await checkAuditExport(file)).toMatchObject({ ok: false, line: 3, seq: event.seq });
  });
});

it('registers a key once', async () => {
  // A key registered twice (two processes sharing one key file) is one key.
  const again = generateCheckpointSigner();
  await registerCheckpointKey(harness.deps.db, again, new Date());
  await registerCheckpointKey(harness.deps.db, again, new Date());
  const keys = await harness.deps.db
    .selectFrom('audit_checkpoint_keys')
    .select('key_id')
    .where('key_id', '=', again.keyId)
    .execute();
  expect(keys).toHaveLength(1);
});
