import { type Kysely, sql } from 'kysely';
import type { BulkRowError } from '../../contract/schemas/bulk-import.ts';
import type { BulkUserCsvColumn } from '../../contract/user-csv.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ApiError } from '../http/errors.ts';
import { principalOfUser } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { pollingLoop } from '../polling-loop.ts';
import { createPerson } from '../users/index.ts';
import { endJob, purgeExpiredJobs } from './repository.ts';
import {
  type BulkAccount,
  type BulkRole,
  checkCells,
  checkRoles,
  currentDefaultRoles,
  readBulkAccount,
  rolesByName,
} from './validate.ts';

/**
 * Creates the valid rows of started bulk jobs (decision 038). Every server process runs one,
 * started by `startServer` like the mail dispatcher; they share the work through the database:
 *
 * - a runner claims a queued or abandoned job with a lease (`claimed_until`, 60 s, renewed every
 *   10 s), so two processes never run one job at once;
 * - each row is one transaction: lock it, check it is still `valid`, check it again (user name free,
 *   roles still assignable by the creator, the account active and in reach), then write the user with
 *   its memberships and roles, its CREATE USER event, its invitation in the outbox, the row's status
 *   and the job's counters. A user exists if and only if its row says `created`;
 * - a process that dies mid-row leaves that row's transaction rolled back and its lease running out;
 *   the next runner continues with the rows still `valid`. An unexpected error retries a row up to
 *   three times, then marks it `failed` (`internalError`);
 * - every 100 rows the creator is read again: one disabled or without the permission any more ends
 *   the job, the rest `cancelled` (`creatorLostPermission`). Cancelling stops between rows.
 */

export const BULK_LEASE_MS = 60_000;
export const BULK_LEASE_RENEW_MS = 10_000;
/** How often an idle runner looks for jobs (other processes' starts, abandoned leases). */
export const BULK_POLL_MS = 2_000;
/** Rows between two readings of the creator's permissions. */
export const CREATOR_RELOAD_ROWS = 100;
/** Tries of a row that fails unexpectedly, before it is given up as `internalError`. */
export const MAX_ROW_ATTEMPTS = 3;
const PURGE_INTERVAL_MS = 3_600_000;

export interface BulkImportRunnerDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Told after each row that queued an invitation, so it leaves at once. */
  mail?: { nudge: () => void };
  log?: Pick<Console, 'error' | 'warn'>;
}

export interface BulkImportRunner {
  /** Polls until `stop`. */
  start: () => void;
  /** Looks for work at once; called after a job is started. */
  nudge: () => void;
  /**
   * Claims one job with work and runs it; answers false when there was none. With `maxRows`, stops
   * after that many rows still holding the lease, as a process that died between two rows would.
   */
  runNext: (options?: { maxRows?: number }) => Promise<boolean>;
  /** Runs jobs until none has work left. */
  drain: () => Promise<void>;
  /** Stops polling and waits for the row in hand. */
  stop: () => Promise<void>;
}

/** What a job runs with, read again every `CREATOR_RELOAD_ROWS` rows. */
interface JobContext {
  creator: Principal | null;
  account: BulkAccount | undefined;
  known: ReadonlyMap<string, BulkRole>;
  defaults: (BulkRole | undefined)[];
}

interface ClaimedJob {
  id: string;
  created_by: string;
  account_id: string;
  role_ids: string[];
  send_invitations: boolean;
  requested_from: string | null;
}

/**
 * The row reason of a refusal of the create path (POST user's checks): the same codes the dry run
 * gives, a role out of reach or of another account being `unknownRole` there too. Null for a refusal
 * the bulk file cannot cause, which is then an unexpected error of the row.
 */
export function reasonOfRefusal(error: ApiError): BulkRowError | null {
  const { code, field } = error.detail;
  if (code === 'inUse') return { column: 'user_name', code: 'inUse' };
  if (code === 'permissionNotHeld' || code === 'roleNotForUser') return { column: 'roles', code };
  if (code === 'rolesFeatureOff' || (error.status === 404 && field === 'role_ids')) {
    return { column: 'roles', code: 'unknownRole' };
  }
  if (error.status === 404) return { column: 'row', code: 'accountUnavailable' };
  if (error.status === 403) return { column: 'row', code: 'creatorLostPermission' };
  return null;
}

export function createBulkImportRunner(deps: BulkImportRunnerDeps): BulkImportRunner {
  const { db, now } = deps;
  const log = deps.log ?? console;

  async function claim(): Promise<ClaimedJob | undefined> {
    const at = now();
    const lease = new Date(at.getTime() + BULK_LEASE_MS);
    const { rows } = await sql<{ id: string }>`
      update bulk_import_jobs
         set claimed_until = ${lease},
             state = case when state = 'queued' then 'running' else state end,
             started_at = coalesce(started_at, ${at})
       where id = (
               select id from bulk_import_jobs
                where state in ('queued', 'running', 'cancelling')
                  and (claimed_until is null or claimed_until <= ${at})
                order by created_at
                limit 1
                  for update skip locked)
      returning id`.execute(db);
    const id = rows[0]?.id;
    if (id === undefined) return undefined;
    return db
      .selectFrom('bulk_import_jobs')
      .select(['id', 'created_by', 'account_id', 'role_ids', 'send_invitations', 'requested_from'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async function contextOf(job: ClaimedJob): Promise<JobContext> {
    const creator = await principalOfUser(db, job.created_by);
    const account = creator === null ? undefined : await readBulkAccount(db, creator, job.account_id);
    return {
      creator,
      account,
      known: await rolesByName(db, job.account_id),
      defaults: await currentDefaultRoles(db, job.account_id, job.role_ids),
    };
  }

  /** Whether the creator may still create users in the job's account (an account out of reach fails rows instead). */
  function creatorMay(context: JobContext): boolean {
    if (context.creator === null) return false;
    if (context.account === undefined) return true;
    try {
      assertUserAccess(context.creator, context.account.scope, 'manage');
      return true;
    } catch {
      return false;
    }
  }

  async function markFailed(
    trx: Kysely<Database>,
    jobId: string,
    rowNumber: number,
    errors: BulkRowError[],
  ): Promise<void> {
    await trx
      .updateTable('bulk_import_rows')
      .set({ status: 'failed', errors: JSON.stringify(errors), processed_at: now() })
      .where('job_id', '=', jobId)
      .where('row_number', '=', rowNumber)
      .where('status', '=', 'valid')
      .execute();
    await trx
      .updateTable('bulk_import_jobs')
      .set((eb) => ({ processed: eb('processed', '+', 1), failed_count: eb('failed_count', '+', 1) }))
      .where('id', '=', jobId)
      .execute();
  }

  /**
   * One row in one transaction; answers whether it queued an invitation. The row's cells and roles
   * are checked again as the dry run checked them, then the user is made by `createPerson`, the one
   * create path POST user runs, with its own checks; a refusal of it rolls the row's transaction back
   * and `processRow` records the reason.
   */
  async function createRow(job: ClaimedJob, context: JobContext, rowNumber: number): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('bulk_import_rows')
        .select(['cells'])
        .where('job_id', '=', job.id)
        .where('row_number', '=', rowNumber)
        .where('status', '=', 'valid')
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return false;
      const { creator, account } = context;
      if (creator === null) throw new Error('A job runs only for a creator who may act.');
      if (account === undefined || !account.active) {
        await markFailed(trx, job.id, rowNumber, [{ column: 'row', code: 'accountUnavailable' }]);
        return false;
      }
      const cells = row.cells as Partial<Record<BulkUserCsvColumn, string>>;
      const checked = checkCells({ cells, raw: cells, cellCountMatches: true }, account);
      const roles = checkRoles(checked.roleNames, context.known, context.defaults, creator, account);
      const errors = [...checked.errors, ...roles.errors];
      const { fields } = checked;
      if (
        errors.length > 0 ||
        fields.user_name === undefined ||
        fields.first_name === undefined ||
        fields.last_name === undefined ||
        fields.email === undefined ||
        fields.locale === undefined
      ) {
        await markFailed(
          trx,
          job.id,
          rowNumber,
          errors.length > 0 ? errors : [{ column: 'row', code: 'internalError' }],
        );
        return false;
      }
      const userId = await createPerson(
        trx,
        creator,
        { now },
        {
          first_name: fields.first_name,
          last_name: fields.last_name,
          email: fields.email,
          user_name: fields.user_name,
          phone: fields.phone ?? '',
          locale: fields.locale,
          primary_account_id: account.id,
          account_ids: [],
          role_ids: roles.roles.map((role) => role.id),
          aliases: {},
          sign_in: 'standard',
        },
        {
          actor: { id: creator.userId, name: creator.userName, address: job.requested_from },
          invitation: job.send_invitations,
          details: { bulk_job_id: job.id },
        },
      );
      await trx
        .updateTable('bulk_import_rows')
        .set({ status: 'created', user_id: userId, errors: '[]', processed_at: now() })
        .where('job_id', '=', job.id)
        .where('row_number', '=', rowNumber)
        .execute();
      await trx
        .updateTable('bulk_import_jobs')
        .set((eb) => ({ processed: eb('processed', '+', 1), created_count: eb('created_count', '+', 1) }))
        .where('id', '=', job.id)
        .execute();
      return job.send_invitations;
    });
  }

  /**
   * Takes the job's next valid row while the job is still running and counts a try of it, in one
   * statement committed before the row's transaction, so a row that kills its process is not tried
   * forever. Answers nothing when the job has no valid row left or is no longer running.
   */
  async function takeNextRow(jobId: string): Promise<{ rowNumber: number; attempts: number } | undefined> {
    const { rows } = await sql<{ row_number: number; attempts: number }>`
      update bulk_import_rows
         set attempts = attempts + 1
       where job_id = ${jobId}
         and row_number = (
               select row_number from bulk_import_rows
                where job_id = ${jobId} and status = 'valid'
                order by row_number
                limit 1)
         and status = 'valid'
         and exists (select 1 from bulk_import_jobs where id = ${jobId} and state = 'running')
      returning row_number, attempts`.execute(db);
    const row = rows[0];
    return row && { rowNumber: row.row_number, attempts: row.attempts };
  }

  async function processRow(job: ClaimedJob, context: JobContext, rowNumber: number, attempts: number) {
    if (attempts > MAX_ROW_ATTEMPTS) {
      await db
        .transaction()
        .execute((trx) => markFailed(trx, job.id, rowNumber, [{ column: 'row', code: 'internalError' }]));
      return;
    }
    try {
      if (await createRow(job, context, rowNumber)) deps.mail?.nudge();
    } catch (error) {
      // Another request took the name between the check and the insert, or the create path refused.
      const reason = isUniqueViolation(error, 'users_user_name_key_key')
        ? ({ column: 'user_name', code: 'inUse' } as const)
        : error instanceof ApiError
          ? reasonOfRefusal(error)
          : null;
      if (reason !== null) {
        await db.transaction().execute((trx) => markFailed(trx, job.id, rowNumber, [reason]));
        return;
      }
      log.error(`Bulk job ${job.id} row ${rowNumber} failed (attempt ${attempts}):`, error);
    }
  }

  async function runJob(job: ClaimedJob, maxRows: number): Promise<void> {
    let context = await contextOf(job);
    let lastRenewal = now().getTime();
    for (let done = 0; ; done += 1) {
      if (loop.stopped) return;
      if (done > 0 && done % CREATOR_RELOAD_ROWS === 0) context = await contextOf(job);
      if (!creatorMay(context)) {
        await db
          .transaction()
          .execute((trx) =>
            endJob(trx, job.id, 'cancelled', now(), { column: 'row', code: 'creatorLostPermission' }),
          );
        return;
      }
      if (done >= maxRows) return;
      if (now().getTime() - lastRenewal >= BULK_LEASE_RENEW_MS) {
        lastRenewal = now().getTime();
        await db
          .updateTable('bulk_import_jobs')
          .set({ claimed_until: new Date(lastRenewal + BULK_LEASE_MS) })
          .where('id', '=', job.id)
          .execute();
      }
      const next = await takeNextRow(job.id);
      if (next !== undefined) {
        await processRow(job, context, next.rowNumber, next.attempts);
        continue;
      }
      // No row taken: the job is stopping, gone, or has nothing valid left.
      const current = await db
        .selectFrom('bulk_import_jobs')
        .select('state')
        .where('id', '=', job.id)
        .executeTakeFirst();
      if (current === undefined) return;
      const ending = current.state === 'cancelling' ? 'cancelled' : 'finished';
      if (current.state === 'cancelling' || current.state === 'running') {
        await db.transaction().execute((trx) => endJob(trx, job.id, ending, now()));
      }
      return;
    }
  }

  async function runNext(options: { maxRows?: number } = {}): Promise<boolean> {
    const job = await claim();
    if (job === undefined) return false;
    await runJob(job, options.maxRows ?? Number.POSITIVE_INFINITY);
    return true;
  }

  let lastPurge = 0;
  const loop = pollingLoop({
    intervalMs: BULK_POLL_MS,
    pass: drain,
    onError: (error) => log.error('The bulk import runner failed; it tries again at the next poll:', error),
  });

  async function drain(): Promise<void> {
    while (!loop.stopped && (await runNext()));
    if (!loop.stopped && now().getTime() - lastPurge >= PURGE_INTERVAL_MS) {
      lastPurge = now().getTime();
      await purgeExpiredJobs(db, now());
    }
  }

  return {
    start: loop.start,
    nudge: loop.nudge,
    runNext,
    drain,
    stop: loop.stop,
  };
}
