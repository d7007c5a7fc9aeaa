import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { apiPaths } from '../contract/paths.ts';
import type { BulkJob } from '../contract/schemas/bulk-import.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { BULK_USER_CSV_COLUMNS, BULK_USER_MAX_ROWS } from '../contract/user-csv.ts';
import { openDatabase } from '../server/db/connection.ts';
import { signedInToken, startPlatform } from './servers.ts';

/**
 * `npm run bench bulk`: 10,000 users created from one CSV file through the real server (a child
 * process on PGlite, as `npm start` runs it): the dry run, the start, and the runner's transaction per
 * row until the job is `finished`, as rows per second. No password is hashed: bulk users set theirs
 * through the invitation, so argon2 is not part of the cost. Invitations are off, so the mail
 * dispatcher writing 10,000 .eml files does not share the database with the runner while it is timed
 * (the outbox row itself is one more insert in each row's transaction).
 *
 * The baseline, measured in the same run on PGlite in a directory of its own: 10,000 transactions of
 * one insert each, the floor of any design that keeps one transaction per row (decision 038).
 */

const ROWS = BULK_USER_MAX_ROWS;
const POLL_MS = 200;

function bulkFile(rows: number): string {
  const lines = [BULK_USER_CSV_COLUMNS.join(',')];
  for (let index = 1; index <= rows; index += 1) {
    lines.push(
      [`Bench`, `User ${index}`, `bench-bulk-${index}@example.com`, `bench-bulk-${index}`, '', '', ''].join(
        ',',
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function expectStatus(response: Response, status: number, what: string): Promise<Response> {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

/** Rows per second of 10,000 one-insert transactions on a bare PGlite database. */
async function baselineRowsPerSecond(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-baseline-'));
  const database = await openDatabase({ dataDir });
  try {
    await sql`create table bench_rows (id text primary key, name text not null, cells jsonb not null)`.execute(
      database.db,
    );
    const started = performance.now();
    for (let index = 0; index < ROWS; index += 1) {
      await database.db.transaction().execute(async (trx) => {
        await sql`insert into bench_rows values (${randomUUID()}, ${`bench-${index}`}, ${JSON.stringify({ index })})`.execute(
          trx,
        );
      });
    }
    return ROWS / ((performance.now() - started) / 1000);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchBulkImport(): Promise<void> {
  const baseline = await baselineRowsPerSecond();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-data-'));
  const platform = await startPlatform(dataDir, '');
  try {
    const authorization = `Bearer ${await signedInToken(platform.origin, dataDir)}`;
    const profile = (await (
      await expectStatus(
        await fetch(`${platform.origin}${apiPaths.profile}`, { headers: { authorization } }),
        200,
        'GET profile',
      )
    ).json()) as Profile;
    const roles = (await (
      await expectStatus(
        await fetch(`${platform.origin}${apiPaths.roles.list}?q=System%20administrator`, {
          headers: { authorization },
        }),
        200,
        'GET role',
      )
    ).json()) as { items: { id: string; code: string | null }[] };
    const role = roles.items.find((item) => item.code === 'system_administrator');
    if (role === undefined) throw new Error('No system administrator role.');
    const file = bulkFile(ROWS);

    const started = performance.now();
    const query = new URLSearchParams({
      account_id: profile.primary_account_id,
      role_ids: role.id,
      file_name: 'bench.csv',
    });
    const validated = (await (
      await expectStatus(
        await fetch(`${platform.origin}${apiPaths.users.bulkValidate}?${query}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'text/csv' },
          body: file,
        }),
        200,
        'POST user/bulk/validate',
      )
    ).json()) as BulkJob;
    const checkedAt = performance.now();
    if (validated.valid !== ROWS) throw new Error(`Only ${validated.valid} of ${ROWS} rows are valid.`);
    await expectStatus(
      await fetch(`${platform.origin}${apiPaths.users.bulk}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ job_id: validated.id, send_invitations: false }),
      }),
      202,
      'POST user/bulk',
    );
    let job = validated;
    while (job.state !== 'finished' && job.state !== 'cancelled') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job = (await (
        await expectStatus(
          await fetch(`${platform.origin}${apiPaths.users.bulkJob(validated.id)}`, {
            headers: { authorization },
          }),
          200,
          'GET user/bulk/{jobId}',
        )
      ).json()) as BulkJob;
    }
    const seconds = (performance.now() - started) / 1000;
    const dryRun = (checkedAt - started) / 1000;
    const rowsPerSecond = ROWS / seconds;
    console.info(`\nBulk creation of ${ROWS.toLocaleString('en')} users from one CSV file (PGlite)`);
    console.info(
      '  no password is hashed: bulk users set theirs through the invitation (invitations off here)',
    );
    console.info(
      `  dry run ${dryRun.toFixed(1)} s, dry run to ${job.state} ${seconds.toFixed(1)} s: ` +
        `${rowsPerSecond.toFixed(0)} rows/s (${job.created} created, ${job.failed} failed)`,
    );
    console.info(`  one-insert transactions on bare PGlite (baseline): ${baseline.toFixed(0)} rows/s`);
    console.info(
      `  bulk creation / baseline: ${(rowsPerSecond / baseline).toFixed(3)} × the rows per second`,
    );
  } finally {
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
