import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { consoleLocaleFor, DEFAULT_CONSOLE_LOCALE } from '../../contract/locales.ts';
import { apiPaths } from '../../contract/paths.ts';
import {
  type BulkJob,
  type BulkRow,
  type BulkRowList,
  bulkJobParamsSchema,
  bulkJobSchema,
  bulkRowListSchema,
  bulkRowsQuerySchema,
  bulkStartSchema,
  bulkValidateQuerySchema,
} from '../../contract/schemas/bulk-import.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import { BULK_REPORT_CSV_COLUMNS } from '../../contract/user-csv.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, updateDetails } from '../audit/change.ts';
import { utcDate } from '../dates.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { readCsvBody } from '../http/csv-body.ts';
import { csvLine, csvResponse, EXPORT_BATCH_SIZE } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { loadServerCatalogs, type ServerCatalogs } from '../i18n/catalog.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { probingUserNames } from '../users/index.ts';
import { parseBulkFile } from './parse.ts';
import { reasonText } from './reasons.ts';
import {
  endJob,
  findCreatorLocale,
  findOwnJob,
  insertJob,
  jobOf,
  listRows,
  markJobCancelling,
  queueJob,
  rowBatches,
} from './repository.ts';
import { bulkAccountFor, defaultRolesFor, validateRows } from './validate.ts';

const JOB_NOT_FOUND = 'Bulk job not found.';

let catalogs: Promise<ServerCatalogs> | null = null;
/** The server catalogs, read once per process when the first report is asked for. */
function serverCatalogs(): Promise<ServerCatalogs> {
  catalogs ??= loadServerCatalogs().catch((error: unknown) => {
    catalogs = null;
    throw error;
  });
  return catalogs;
}

/**
 * Bulk creation of users from a CSV file (/account/ui-api/v1/user/bulk…, decision 035 §5, decision 038),
 * described in docs/api.md. Only a job's creator reads or acts on it; anyone else is answered 404
 * (G10). The start of a job is recorded (CREATE BULK_IMPORT) and its cancellation (UPDATE of its
 * state), each in its transaction; each user a job creates is a CREATE USER event of its own. The dry
 * run is not: it changes nothing anyone but its creator sees (decision 023, exemptions).
 */
export function bulkImportRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);

  async function ownJob(userId: string, jobId: string) {
    const job = await findOwnJob(db, userId, jobId);
    if (job === undefined) throw new ApiError(404, JOB_NOT_FOUND);
    return job;
  }

  // The dry run: the account first (404, 403) before a byte of the file is read, then the default
  // roles, then the file (415, 413 by the body limit, 400 for the whole file), then every row.
  app.post(
    '/user/bulk/validate',
    describeOperation({
      tag: 'Bulk user creation',
      summary:
        'Dry run of a bulk user file: the account first (404 out of reach, 403 without the permission of creating users there), then the default roles (404, 403 permissionNotHeld, 400 roleNotForUser), then the file, refused whole with 400 notUtf8, emptyFile, tooManyRows (over 10,000 rows), missingColumn or unknownColumn (field file.<column>), malformedCsv (field file.line.<n>), controlCharacter (field file.row.<n>.<column>), 413 above 4 MiB, 415 unless text/csv. Every row is stored valid or invalid with its reasons; the answer is the job.',
      body: {
        description:
          'The file: a header row naming first_name, last_name, email, user_name and optionally phone, locale, roles (| between role names); comma- or semicolon-separated, UTF-8.',
        media: 'text/csv',
      },
      success: { status: 200, description: 'Job, state validated', schema: bulkJobSchema },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateQuery(bulkValidateQuerySchema),
    async (c) => {
      const { account_id, role_ids, file_name } = c.req.valid('query');
      const principal = c.var.principal;
      const account = await bulkAccountFor(db, principal, account_id);
      const defaults = await defaultRolesFor(db, principal, account, role_ids);
      const bytes = await readCsvBody(c);
      const file = parseBulkFile(bytes);
      const { rows } = await probingUserNames(
        db,
        principal,
        deps.now(),
        () => validateRows(db, principal, account, defaults, file.rows),
        (validated) => validated.outsideReach,
      );
      const creator = await findCreatorLocale(db, principal.userId);
      const job = await db.transaction().execute((trx) =>
        insertJob(trx, {
          createdBy: principal.userId,
          accountId: account.id,
          roleIds: defaults.map((role) => role.id),
          fileName: file_name,
          fileSha256: createHash('sha256').update(bytes).digest('hex'),
          requestedFrom: clientAddress(c, deps.config),
          locale: consoleLocaleFor(creator?.locale),
          now: deps.now(),
          rows,
        }),
      );
      return c.json(jobOf(job) satisfies BulkJob);
    },
  );

  app.post(
    '/user/bulk',
    describeOperation({
      tag: 'Bulk user creation',
      summary:
        "Starts one's own validated job (409 otherwise): its valid rows are created in the background one transaction each, with an invitation unless send_invitations is false. Location names the job.",
      success: { status: 202, description: 'Job queued', schema: bulkJobSchema },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateJson(bulkStartSchema),
    async (c) => {
      const { job_id, send_invitations } = c.req.valid('json');
      const principal = c.var.principal;
      const started = await db.transaction().execute(async (trx) => {
        const job = await findOwnJob(trx, principal.userId, job_id, true);
        if (job === undefined) throw new ApiError(404, JOB_NOT_FOUND, { field: 'job_id' });
        // The creator may have lost the account or the permission since the dry run.
        await bulkAccountFor(trx, principal, job.account_id);
        if (job.state !== 'validated') {
          throw new ApiError(409, `The job is ${job.state}; only a checked job can be started.`);
        }
        const queued = await queueJob(trx, job.id, send_invitations);
        // The file by name and digest, never its lines (personal data of the people it names).
        await auditChange(trx, c, deps, {
          action: 'CREATE',
          resourceType: 'BULK_IMPORT',
          resourceId: queued.id,
          accountId: queued.account_id,
          details: {
            file_name: queued.file_name,
            file_sha256: queued.file_sha256,
            users: queued.valid_rows,
            role_ids: queued.role_ids,
            send_invitations,
          },
        });
        return queued;
      });
      deps.bulkImport?.nudge();
      c.header('Location', apiPaths.users.bulkJob(started.id));
      return c.json(jobOf(started) satisfies BulkJob, 202);
    },
  );

  app.get(
    '/user/bulk/:jobId',
    describeOperation({
      tag: 'Bulk user creation',
      summary: "One's own bulk job with its counts; anyone else's is 404.",
      success: { status: 200, description: 'Job', schema: bulkJobSchema },
      failures: [400, 404],
    }),
    authenticated,
    validateParams(bulkJobParamsSchema),
    async (c) => {
      const job = await ownJob(c.var.principal.userId, c.req.valid('param').jobId);
      return c.json(jobOf(job) satisfies BulkJob);
    },
  );

  app.get(
    '/user/bulk/:jobId/rows',
    describeOperation({
      tag: 'Bulk user creation',
      summary: "A page of one's own job's rows in file order, all or of one status, with each row's reasons.",
      success: { status: 200, description: 'Rows', schema: bulkRowListSchema },
      failures: [400, 404],
    }),
    authenticated,
    validateParams(bulkJobParamsSchema),
    validateQuery(bulkRowsQuerySchema),
    async (c) => {
      const job = await ownJob(c.var.principal.userId, c.req.valid('param').jobId);
      const { limit = DEFAULT_LIST_LIMIT, offset = 0, status } = c.req.valid('query');
      const list: BulkRowList = await listRows(db, job.id, status, { limit, offset });
      return c.json(list);
    },
  );

  // Cancel: a job not yet taken by a runner ends at once; a running one stops between two rows.
  app.delete(
    '/user/bulk/:jobId',
    describeOperation({
      tag: 'Bulk user creation',
      summary:
        "Cancels one's own job: one not yet running ends at once, a running one stops between two rows; rows not yet processed become cancelled. 409 once it has ended.",
      success: { status: 204, description: 'Cancelled or cancelling' },
      failures: [400, 404, 409],
    }),
    authenticated,
    validateParams(bulkJobParamsSchema),
    async (c) => {
      const principal = c.var.principal;
      await db.transaction().execute(async (trx) => {
        const job = await findOwnJob(trx, principal.userId, c.req.valid('param').jobId, true);
        if (job === undefined) throw new ApiError(404, JOB_NOT_FOUND);
        const recordState = (state: string) =>
          auditChange(trx, c, deps, {
            action: 'UPDATE',
            resourceType: 'BULK_IMPORT',
            resourceId: job.id,
            accountId: job.account_id,
            details: updateDetails({ state: job.state }, { state }, ['state']),
          });
        switch (job.state) {
          case 'validated':
          case 'queued':
            // Locked here, so no runner holds it: runners claim with `skip locked`.
            await endJob(trx, job.id, 'cancelled', deps.now());
            await recordState('cancelled');
            return;
          case 'running':
            await markJobCancelling(trx, job.id);
            await recordState('cancelling');
            return;
          case 'cancelling':
            return;
          default:
            throw new ApiError(409, `The job is ${job.state} already.`);
        }
      });
      deps.bulkImport?.nudge();
      return c.body(null, 204);
    },
  );

  app.get(
    '/user/bulk/:jobId/report',
    describeOperation({
      tag: 'Bulk user creation',
      summary:
        "One's own job's report as a CSV attachment: every row with its outcome (created, invalid, failed, cancelled), its reasons in the creator's language with the stable codes, and the new user's id.",
      success: { status: 200, description: 'CSV file, header row first' },
      failures: [400, 404],
    }),
    authenticated,
    validateParams(bulkJobParamsSchema),
    async (c) => {
      const job = await ownJob(c.var.principal.userId, c.req.valid('param').jobId);
      const loaded = await serverCatalogs();
      const i18n = loaded.get(consoleLocaleFor(job.locale)) ?? loaded.get(DEFAULT_CONSOLE_LOCALE);
      if (i18n === undefined) throw new Error('The server catalogs are not loaded.');
      const line = (row: BulkRow) =>
        csvLine([
          String(row.row),
          String(row.line),
          row.cells.user_name ?? '',
          row.cells.email ?? '',
          row.cells.first_name ?? '',
          row.cells.last_name ?? '',
          row.status,
          row.errors.map((error) => reasonText(i18n, error)).join('; '),
          row.user_id ?? '',
        ]);
      return csvResponse(c, {
        header: csvLine(BULK_REPORT_CSV_COLUMNS),
        batches: rowBatches(db, job.id, EXPORT_BATCH_SIZE),
        line,
        filename: `bulk-users-report-${utcDate(deps.now())}.csv`,
      });
    },
  );

  return app;
}
