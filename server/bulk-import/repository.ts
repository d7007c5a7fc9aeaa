import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import * as v from 'valibot';
import {
  BULK_JOB_STATES,
  BULK_ROW_STATUSES,
  type BulkJob,
  type BulkRow,
  type BulkRowError,
  type BulkRowStatus,
  bulkRowErrorSchema,
} from '../../contract/schemas/bulk-import.ts';
import { type ListPageOf, listPage } from '../db/list-page.ts';
import type { BulkImportJobsTable, Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { ValidatedRow } from './validate.ts';

/** How long a checked job waits to be started before it is deleted with its rows. */
export const VALIDATED_JOB_LIFETIME_MS = 24 * 3_600_000;
/** How long an ended job and its rows (personal data) are kept for the report. */
export const ENDED_JOB_LIFETIME_MS = 30 * 86_400_000;
/** Rows per insert statement when a dry run stores its rows. */
const ROW_INSERT_BATCH = 500;

export type JobRow = Selectable<BulkImportJobsTable>;

export interface NewJob {
  createdBy: string;
  accountId: string;
  roleIds: readonly string[];
  fileName: string;
  fileSha256: string;
  requestedFrom: string | null;
  locale: string;
  now: Date;
  rows: readonly ValidatedRow[];
}

/** Stores a dry run's job and every row, valid or not, in the caller's transaction; answers the job. */
export async function insertJob(trx: Kysely<Database>, job: NewJob): Promise<JobRow> {
  const id = randomUUID();
  const valid = job.rows.filter((row) => row.errors.length === 0).length;
  const inserted = await trx
    .insertInto('bulk_import_jobs')
    .values({
      id,
      created_by: job.createdBy,
      account_id: job.accountId,
      role_ids: JSON.stringify(job.roleIds),
      file_name: job.fileName,
      file_sha256: job.fileSha256,
      state: 'validated',
      total_rows: job.rows.length,
      valid_rows: valid,
      requested_from: job.requestedFrom,
      locale: job.locale,
      created_at: job.now,
      expires_at: new Date(job.now.getTime() + VALIDATED_JOB_LIFETIME_MS),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (let start = 0; start < job.rows.length; start += ROW_INSERT_BATCH) {
    await trx
      .insertInto('bulk_import_rows')
      .values(
        job.rows.slice(start, start + ROW_INSERT_BATCH).map((row) => ({
          job_id: id,
          row_number: row.row,
          line: row.line,
          cells: JSON.stringify(row.cells),
          status: row.errors.length === 0 ? 'valid' : 'invalid',
          errors: JSON.stringify(row.errors),
        })),
      )
      .execute();
  }
  return inserted;
}

/**
 * The job `jobId` if `userId` created it; anyone else's is not found (decision 018 G10), so nobody
 * learns another administrator's job exists. With `lock`, locked for the caller's transaction.
 */
export function findOwnJob(db: Kysely<Database>, userId: string, jobId: string, lock = false) {
  return db
    .selectFrom('bulk_import_jobs')
    .selectAll()
    .where('id', '=', jobId)
    .where('created_by', '=', userId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** A job as the API answers it. */
export function jobOf(row: JobRow): BulkJob {
  return {
    id: row.id,
    state: oneOf(BULK_JOB_STATES, row.state, 'bulk job state'),
    file_name: row.file_name,
    account_id: row.account_id,
    role_ids: row.role_ids,
    send_invitations: row.send_invitations,
    total: row.total_rows,
    valid: row.valid_rows,
    invalid: row.total_rows - row.valid_rows,
    processed: row.processed,
    created: row.created_count,
    failed: row.failed_count,
    cancelled: row.cancelled_count,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/** Stored reasons, read back through their schema: a reason a newer version wrote is kept as `invalidValue`. */
export function errorsOf(stored: unknown): BulkRowError[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((item) => {
    const parsed = v.safeParse(bulkRowErrorSchema, item);
    return parsed.success ? parsed.output : { column: 'row', code: 'invalidValue' };
  });
}

type StoredRow = {
  row_number: number;
  line: number;
  cells: Record<string, string>;
  status: string;
  errors: unknown;
  user_id: string | null;
};

export function rowOf(row: StoredRow): BulkRow {
  return {
    row: row.row_number,
    line: row.line,
    cells: row.cells,
    status: oneOf(BULK_ROW_STATUSES, row.status, 'bulk row status'),
    errors: errorsOf(row.errors),
    user_id: row.user_id,
  };
}

/** A page of a job's rows in file order, all or those of one status, with the total. */
export async function listRows(
  db: Kysely<Database>,
  jobId: string,
  status: BulkRowStatus | undefined,
  page: { limit: number; offset: number },
): Promise<ListPageOf<BulkRow>> {
  const base = db
    .selectFrom('bulk_import_rows')
    .where('job_id', '=', jobId)
    .$if(status !== undefined, (query) => query.where('status', '=', status as string));
  // Rows carry no id to name in a cursor; a file's rows are few enough for the offset.
  const { rows, ...total } = await listPage(
    { db, matching: base, keys: null, direction: 'asc', page },
    (cut) =>
      cut
        .select(['row_number', 'line', 'cells', 'status', 'errors', 'user_id'])
        .orderBy('row_number')
        .execute(),
  );
  return { items: rows.map(rowOf), ...total };
}

/** Every row of a job in file order, `size` at a time by keyset: what the report streams. */
export async function* rowBatches(
  db: Kysely<Database>,
  jobId: string,
  size: number,
): AsyncGenerator<BulkRow[], void, undefined> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('bulk_import_rows')
      .select(['row_number', 'line', 'cells', 'status', 'errors', 'user_id'])
      .where('job_id', '=', jobId)
      .where('row_number', '>', after)
      .orderBy('row_number')
      .limit(size)
      .execute();
    if (rows.length === 0) return;
    yield rows.map(rowOf);
    after = rows[rows.length - 1]?.row_number ?? after;
    if (rows.length < size) return;
  }
}

/**
 * Ends a job: the rows still `valid` become `cancelled` (with `reason` when the job, not its creator,
 * stopped them), the counters follow, and the job is kept 30 days for its report.
 */
export async function endJob(
  trx: Kysely<Database>,
  jobId: string,
  state: 'finished' | 'cancelled',
  now: Date,
  reason?: BulkRowError,
): Promise<void> {
  const cancelled = await trx
    .updateTable('bulk_import_rows')
    .set({ status: 'cancelled', processed_at: now, ...(reason ? { errors: JSON.stringify([reason]) } : {}) })
    .where('job_id', '=', jobId)
    .where('status', '=', 'valid')
    .executeTakeFirst();
  const count = Number(cancelled.numUpdatedRows);
  await trx
    .updateTable('bulk_import_jobs')
    .set({
      state,
      finished_at: now,
      claimed_until: null,
      expires_at: new Date(now.getTime() + ENDED_JOB_LIFETIME_MS),
      cancelled_count: sql`cancelled_count + ${count}`,
    })
    .where('id', '=', jobId)
    .execute();
}

/** Starts a checked job: queued for a runner, kept until it ends. */
export function queueJob(trx: Kysely<Database>, jobId: string, sendInvitations: boolean): Promise<JobRow> {
  return trx
    .updateTable('bulk_import_jobs')
    .set({ state: 'queued', send_invitations: sendInvitations, expires_at: null })
    .where('id', '=', jobId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Asks the runner holding a job to stop after the row it is on. */
export async function markJobCancelling(trx: Kysely<Database>, jobId: string): Promise<void> {
  await trx.updateTable('bulk_import_jobs').set({ state: 'cancelling' }).where('id', '=', jobId).execute();
}

/** The language the job's creator reads its report and mails in. */
export function findCreatorLocale(db: Kysely<Database>, userId: string) {
  return db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst();
}

/** Deletes jobs (and their rows) past their time; answers how many. */
export async function purgeExpiredJobs(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('bulk_import_jobs').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
