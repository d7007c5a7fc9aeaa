import { type Kysely, sql } from 'kysely';

/**
 * Bulk creation of users from a CSV file (decision 018 §2, decision 038, decision 018 slice 7): a job per checked file and
 * its rows, each row with the cells read, its status and its reasons. A user exists if and only if
 * its row says `created`, since the runner writes both in one transaction. Jobs and rows hold
 * personal data and are deleted when `expires_at` passes (24 hours after a dry run never started,
 * 30 days after a job ends).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_import_jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('role_ids', 'jsonb', (col) =>
      col.notNull().defaultTo(sql`'[]'::jsonb`).check(sql`jsonb_typeof(role_ids) = 'array'`),
    )
    .addColumn('send_invitations', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('file_sha256', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('validated','queued','running','cancelling','finished','cancelled')`),
    )
    .addColumn('total_rows', 'integer', (col) => col.notNull())
    .addColumn('valid_rows', 'integer', (col) => col.notNull())
    .addColumn('processed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('cancelled_count', 'integer', (col) => col.notNull().defaultTo(0))
    // The creator's client address, for the trail of the users the job creates.
    .addColumn('requested_from', 'text')
    // The creator's console locale: the report's language.
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // A runner's lease: while it lies ahead, no other runner takes the job.
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('bulk_import_jobs_created_by')
    .on('bulk_import_jobs')
    .columns(['created_by', 'created_at'])
    .execute();
  // What runners scan: jobs with work left.
  await db.schema
    .createIndex('bulk_import_jobs_active')
    .on('bulk_import_jobs')
    .column('created_at')
    .where(sql.ref('state'), 'in', sql`('queued','running','cancelling')`)
    .execute();
  await db.schema
    .createIndex('bulk_import_jobs_expires_at')
    .on('bulk_import_jobs')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('bulk_import_rows')
    .addColumn('job_id', 'text', (col) => col.notNull().references('bulk_import_jobs.id').onDelete('cascade'))
    .addColumn('row_number', 'integer', (col) => col.notNull())
    .addColumn('line', 'integer', (col) => col.notNull())
    .addColumn('cells', 'jsonb', (col) => col.notNull().check(sql`jsonb_typeof(cells) = 'object'`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('valid','invalid','created','failed','cancelled')`),
    )
    .addColumn('errors', 'jsonb', (col) =>
      col.notNull().defaultTo(sql`'[]'::jsonb`).check(sql`jsonb_typeof(errors) = 'array'`),
    )
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('processed_at', 'timestamptz')
    .addPrimaryKeyConstraint('bulk_import_rows_pkey', ['job_id', 'row_number'])
    .execute();
  await db.schema
    .createIndex('bulk_import_rows_status')
    .on('bulk_import_rows')
    .columns(['job_id', 'status', 'row_number'])
    .execute();
  await db.schema.createIndex('bulk_import_rows_user_id').on('bulk_import_rows').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_import_rows').ifExists().execute();
  await db.schema.dropTable('bulk_import_jobs').ifExists().execute();
}
