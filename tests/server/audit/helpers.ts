import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiPaths } from '../../../contract/paths.ts';
import type { AuditCheckpointList, AuditVerification } from '../../../contract/schemas/audit-log.ts';
import {
  generateCheckpointSigner,
  registerCheckpointKey,
  signAuditCheckpoint,
} from '../../../server/audit/checkpoints.ts';
import { type AuditEventInput, recordAuditEvent } from '../../../server/audit/record.ts';
import { type Caller, call } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** The audit suites' fixtures: events written through the one writer, a signer, the files an auditor keeps. */

export function recordEvents(harness: TestApp, events: readonly AuditEventInput[]): Promise<void> {
  return events.reduce<Promise<unknown>>(
    (done, event) => done.then(() => recordAuditEvent(harness.deps.db, event)),
    Promise.resolve(),
  ) as Promise<void>;
}

/** `count` UPDATE events of `accountId`, an organization each. */
export function updates(count: number, accountId: string | null, actorId = 'actor-1'): AuditEventInput[] {
  return Array.from({ length: count }, (_, index) => ({
    action: 'UPDATE' as const,
    status: 'success' as const,
    resourceType: 'ORGANIZATION' as const,
    resourceId: `organization-${index}`,
    accountId,
    actorId,
    actorName: 'Actor One',
    ipAddress: '192.0.2.1',
    userAgent: 'Tests/1.0',
    details: { changes: { name: { from: `Old ${index}`, to: `New ${index}` } } },
  }));
}

/** A checkpoint signer of the test, its key registered as a server's would be. */
export async function testSigner(harness: TestApp) {
  const signer = generateCheckpointSigner();
  await registerCheckpointKey(harness.deps.db, signer, harness.deps.now());
  return { signer, sign: () => signAuditCheckpoint(harness.deps.db, signer, harness.deps.now) };
}

export async function verifyEvent(harness: TestApp, caller: Caller, id: string): Promise<AuditVerification> {
  const response = await call(harness, 'GET', apiPaths.auditLog.verify(id), { token: caller.token });
  if (response.status !== 200) throw new Error(`verify answered ${response.status}`);
  return (await response.json()) as AuditVerification;
}

/** The JSON Lines export, written to a file in the harness's data directory. */
export async function exportFile(harness: TestApp, caller: Caller, query = ''): Promise<string> {
  const response = await call(harness, 'GET', `${apiPaths.auditLog.export}?format=jsonl${query}`, {
    token: caller.token,
  });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  const file = path.join(harness.dataDir, `export-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, await response.text());
  return file;
}

/** The checkpoints answer, written to a file as an auditor keeps it. */
export async function checkpointsFile(harness: TestApp, caller: Caller): Promise<string> {
  const response = await call(harness, 'GET', apiPaths.auditLog.checkpoints, { token: caller.token });
  const list = (await response.json()) as AuditCheckpointList;
  const file = path.join(harness.dataDir, `checkpoints-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(list));
  return file;
}

/** The events' seq and id in chain order. */
export function chainRows(harness: TestApp) {
  return harness.deps.db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
}
