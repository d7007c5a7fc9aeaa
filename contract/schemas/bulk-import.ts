import * as v from 'valibot';
import { BULK_USER_CSV_COLUMNS } from '../user-csv.ts';
import type { ValidationCode } from '../validation.ts';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../validation.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries } from './query.ts';
import { MAX_USER_GRANTS } from './users.ts';

/**
 * Bulk creation of users from a CSV file (decision 035 §5, decision 038): a dry run stores the file's rows as
 * a job, the creator starts it, a runner creates the valid rows one transaction each, and the report
 * tells every row's outcome.
 */

/** Where a job is: checked, waiting for a runner, being run, stopping, done, stopped. */
export const BULK_JOB_STATES = [
  'validated',
  'queued',
  'running',
  'cancelling',
  'finished',
  'cancelled',
] as const;
export type BulkJobState = (typeof BULK_JOB_STATES)[number];

/** States in which the runner still has (or may still have) work. */
export const BULK_JOB_ACTIVE_STATES: readonly BulkJobState[] = ['queued', 'running', 'cancelling'];

/** Where one row is: checked good or bad by the dry run, then created, failed or cancelled by the job. */
export const BULK_ROW_STATUSES = ['valid', 'invalid', 'created', 'failed', 'cancelled'] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

/**
 * Why a row was not created: the field rules of creating a user (the same schemas), the rules of the
 * file, and what the job found when it came to the row. Each has its sentence in the report
 * (server/bulk-import/reasons.ts) and on the page.
 */
export const BULK_ROW_CODES = [
  'required',
  'requiredUserName',
  'invalidUserName',
  'invalidEmail',
  'invalidName',
  'invalidLocale',
  'invalidPhone',
  'invalidValue',
  'tooLong',
  'wrongCellCount',
  'duplicateInFile',
  'formulaCell',
  'unknownRole',
  'roleNotForUser',
  'permissionNotHeld',
  'inUse',
  'accountUnavailable',
  'creatorLostPermission',
  'internalError',
] as const satisfies readonly (ValidationCode | string)[];
export type BulkRowCode = (typeof BULK_ROW_CODES)[number];

/** The column a row's reason is about: one of the file's, or `row` for the row as a whole. */
export const BULK_ROW_ERROR_COLUMNS = [...BULK_USER_CSV_COLUMNS, 'row'] as const;
export type BulkRowErrorColumn = (typeof BULK_ROW_ERROR_COLUMNS)[number];

export const bulkRowErrorSchema = v.object({
  column: v.picklist(BULK_ROW_ERROR_COLUMNS),
  code: v.picklist(BULK_ROW_CODES),
  /** For `duplicateInFile`: the earlier row holding the same user name. */
  first_row: v.optional(v.number()),
});
export type BulkRowError = v.InferOutput<typeof bulkRowErrorSchema>;

/** GET user/bulk/{jobId} and the answers of validate and start. */
export const bulkJobSchema = v.object({
  id: v.string(),
  state: v.picklist(BULK_JOB_STATES),
  file_name: v.string(),
  account_id: v.string(),
  role_ids: v.array(v.string()),
  send_invitations: v.boolean(),
  /** Data rows in the file. */
  total: v.number(),
  valid: v.number(),
  invalid: v.number(),
  /** Rows the job has come to (created, failed, or cancelled by the job). */
  processed: v.number(),
  created: v.number(),
  failed: v.number(),
  cancelled: v.number(),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  finished_at: v.nullable(v.string()),
});
export type BulkJob = v.InferOutput<typeof bulkJobSchema>;

/** One row of the file as the dry run read it, with its outcome. */
export const bulkRowSchema = v.object({
  /** 1 for the first data row. */
  row: v.number(),
  /** The line of the file the row starts on (the header is line 1). */
  line: v.number(),
  /** The cells by column, as read (trimmed); a column the file lacks is absent. */
  cells: v.record(v.string(), v.string()),
  status: v.picklist(BULK_ROW_STATUSES),
  errors: v.array(bulkRowErrorSchema),
  user_id: v.nullable(v.string()),
});
export type BulkRow = v.InferOutput<typeof bulkRowSchema>;

export const bulkRowListSchema = listSchema(bulkRowSchema);
export type BulkRowList = v.InferOutput<typeof bulkRowListSchema>;

/** A file name as the browser gives it: one line, bounded. */
const fileNameSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.maxLength(255, 'tooLong'),
  v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
);

/** `role_ids=a,b` in a query: the roles every row without a `roles` cell gets; may be empty. */
const roleIdsQuerySchema = v.optional(
  v.pipe(
    v.string('invalidType'),
    v.transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
    v.maxLength(MAX_USER_GRANTS, 'tooLong'),
    v.check((ids) => ids.every((id) => v.is(resourceIdSchema, id)), 'invalidValue'),
  ),
  '',
);

/** POST user/bulk/validate: the account the users join, the default roles and the file's name. */
export const bulkValidateQuerySchema = v.object({
  account_id: resourceIdSchema,
  role_ids: roleIdsQuerySchema,
  file_name: v.optional(fileNameSchema, ''),
});
export type BulkValidateQuery = v.InferOutput<typeof bulkValidateQuerySchema>;
export type BulkValidateQueryInput = v.InferInput<typeof bulkValidateQuerySchema>;

/** POST user/bulk: start a validated job. */
export const bulkStartSchema = v.object({
  job_id: resourceIdSchema,
  send_invitations: v.optional(v.boolean('invalidType'), true),
});
export type BulkStart = v.InferOutput<typeof bulkStartSchema>;
export type BulkStartInput = v.InferInput<typeof bulkStartSchema>;

export const bulkJobParamsSchema = v.object({ jobId: resourceIdSchema });

/** GET user/bulk/{jobId}/rows: a page of the rows, all or those of one status. */
export const bulkRowsQuerySchema = v.object({
  ...pagingQueryEntries,
  status: v.optional(v.picklist(BULK_ROW_STATUSES, 'invalidValue')),
});
export type BulkRowsQuery = v.InferOutput<typeof bulkRowsQuerySchema>;
export type BulkRowsQueryInput = v.InferInput<typeof bulkRowsQuerySchema>;
